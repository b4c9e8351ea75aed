export * from "./accounts";
export * from "./api-keys";
export * from "./audit";
export * from "./courier-profiles";
export * from "./shipping-orders";
export * from "./sources";
export * from "./validation-results";
export * from "./limits";
