export * from "../../lib/random";
