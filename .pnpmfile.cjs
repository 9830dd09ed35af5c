// Installing this workspace: @signet/core's optional peer dependencies (the React Native native
// modules behind its adapter entry points) are not installed here. pnpm's autoInstallPeers would
// otherwise pull them, and Expo and React Native with them, into every install. The published
// package.json keeps them, as optional peers.
module.exports = {
  hooks: {
    readPackage(pkg) {
      if (pkg.name === "@signet/core" && pkg.peerDependencies) {
        for (const [name, meta] of Object.entries(pkg.peerDependenciesMeta ?? {}))
          if (meta?.optional) delete pkg.peerDependencies[name];
      }
      return pkg;
    },
  },
};
