// Expo's Babel preset (Metro and jest-expo both read this file). Under Jest, `import()` (core
// loads its rarer parts lazily) becomes a `require`, as Jest runs CommonJS.
module.exports = (api) => {
  const test = api.env("test");
  return {
    presets: ["babel-preset-expo"],
    plugins: test ? ["@babel/plugin-transform-dynamic-import"] : [],
  };
};
