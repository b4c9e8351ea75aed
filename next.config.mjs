const production = process.env.NODE_ENV === "production";

// The policy of what is not a page (API answers, files). Pages get one with a nonce per request from proxy.ts
// (server/http/content-security-policy.ts), so no inline script runs without it; two policies on one page would
// both apply, hence this one stays off the pages.
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  `connect-src 'self'${production ? "" : " ws: wss:"}`,
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
  ...(production ? [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }] : []),
];

// The dashboard prints a label by loading its PDF into a hidden frame of the same page, so that one route
// may be framed by its own origin; every other response stays unframeable.
const labelFrameHeaders = [
  {
    key: "Content-Security-Policy",
    value: contentSecurityPolicy.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
  },
  { key: "X-Frame-Options", value: "SAMEORIGIN" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and a data bundle that must be loaded from node_modules, not bundled; the others are
  // native or large server-only modules.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@node-rs/argon2",
    "bwip-js",
    "postgres",
    "pg-boss",
    "pg",
    "pino",
    "prom-client",
  ],
  poweredByHeader: false,
  experimental: {
    // Next buffers the body of a request the proxy runs for (every page, API paths with a `%`) so that both can
    // read it: 10 MB by default. One byte over the 1 MiB every door accepts is enough for the route to refuse it
    // (server/http/body.ts), and a truncated body can then never look like one within the limit.
    proxyClientMaxBodySize: 1024 * 1024 + 1,
  },
  async headers() {
    // Later entries override earlier ones for the same header.
    return [
      { source: "/:path*", headers: securityHeaders },
      // Every response is unframeable, but the checkout widget's dialog page: its Content-Security-Policy
      // (proxy.ts) names the one shop origin that may frame it, which X-Frame-Options cannot say.
      {
        source: "/:path((?!widget/pickup-points$).*)",
        headers: [{ key: "X-Frame-Options", value: "DENY" }],
      },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: contentSecurityPolicy }] },
      { source: "/dashboard/orders/:id/label", headers: labelFrameHeaders },
    ];
  },
};

export default nextConfig;
