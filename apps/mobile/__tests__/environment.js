// React Native's Jest environment, plus Node's own fetch kept aside as `__nodeFetch`: React
// Native's setup replaces `fetch` with its XMLHttpRequest polyfill over a mocked native
// networking module, and these tests talk to a real server.
const { testEnvironment } = require("jest-expo/ios/jest-preset.js");
const ReactNativeEnvironment = require(testEnvironment);

module.exports = class extends ReactNativeEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.__nodeFetch = fetch;
  }
};
