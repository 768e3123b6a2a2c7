/**
 * The bare Remix app the benchmark compares against: the same Remix version and compiler as
 * the app, two pages and two resource routes, nothing else.
 * @type {import('@remix-run/dev').AppConfig}
 */
export default {
  appDirectory: "app",
  assetsBuildDirectory: "public/build",
  publicPath: "/build/",
  serverBuildPath: "build/index.js",
  serverModuleFormat: "esm",
  serverPlatform: "node",
  future: {
    v3_fetcherPersist: true,
    v3_lazyRouteDiscovery: true,
    v3_relativeSplatPath: true,
    v3_singleFetch: false,
    v3_throwAbortReason: true,
  },
};
