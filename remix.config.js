/** @type {import('@remix-run/dev').AppConfig} */
export default {
  appDirectory: "app",
  assetsBuildDirectory: "public/build",
  publicPath: "/build/",
  serverBuildPath: "build/index.js",
  serverModuleFormat: "esm",
  serverPlatform: "node",
  // Stripe's browser packages name a directory entry Node's ES module loader refuses: bundled.
  serverDependenciesToBundle: [/^@stripe\/stripe-js/, /^@stripe\/react-stripe-js/],
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  future: {
    v3_fetcherPersist: true,
    v3_lazyRouteDiscovery: true,
    v3_relativeSplatPath: true,
    // Single fetch changes how responses reach the client; it stays off until the
    // msw-backed provider tests are proven against it (DESIGN.md §1, §7).
    v3_singleFetch: false,
    v3_throwAbortReason: true,
  },
};
