// Types for importers of next.config.mjs outside Next (bench/baseline-server.ts sends the same headers).
import type { NextConfig } from "next";

declare const nextConfig: NextConfig;
export default nextConfig;
