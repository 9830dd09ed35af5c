// Expo's Metro defaults (they find the workspace root and its packages: @signet/core and
// @signet/react), with one copy of React: the workspace's packages have their own dev copies,
// which must not end up in the app beside its own.
const path = require("node:path");
const { getDefaultConfig } = require("expo/metro-config");

const config = getDefaultConfig(__dirname);
const SINGLE = new Set(["react", "react-native"]);
const fromApp = path.join(__dirname, "package.json");
const upstream = config.resolver.resolveRequest;
config.resolver.resolveRequest = (context, name, platform) => {
  const resolve = upstream ?? context.resolveRequest;
  if (SINGLE.has(name.split("/")[0]))
    return resolve({ ...context, originModulePath: fromApp }, name, platform);
  return resolve(context, name, platform);
};

module.exports = config;
