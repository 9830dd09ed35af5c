// Expo's Babel preset (Metro and jest-expo both read this file).
module.exports = (api) => {
  api.cache(true);
  return { presets: ["babel-preset-expo"] };
};
