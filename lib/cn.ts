/** Joins class names, skipping falsy ones. Variants below never overlap, so no class merging is needed. */
export { clsx as cn } from "clsx";
