/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and a data bundle that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "bwip-js", "postgres"],
  poweredByHeader: false,
};

export default nextConfig;
