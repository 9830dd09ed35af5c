// Expo's Babel preset (Metro and jest-expo both read this file). Under Jest, core's preset
// ("@signet/core/jest") adds what Signet needs: its lazy `import()` becomes a `require`.
module.exports = { presets: ["babel-preset-expo"] };
