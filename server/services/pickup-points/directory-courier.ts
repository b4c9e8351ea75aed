import { AppError, notFound } from "@/server/errors";
import { findCourier } from "@/server/couriers/registry";
import { DIRECTORY_COURIERS, type DirectoryCourier } from "@/server/pickup-points/directory-couriers";

export const noDirectory = (courier: string) =>
  new AppError("not_found", `Courier ${courier} keeps no pickup-point directory: its points are not searchable.`);

/**
 * The courier of a pickup-point search. An unknown courier is a 404, and so is one without a directory (the sandbox):
 * the path names a collection that does not exist, which an empty list would hide from an integration that named the
 * wrong courier.
 */
export function directoryCourier(id: string): DirectoryCourier {
  if (!findCourier(id)) throw notFound("Courier");
  if (!(DIRECTORY_COURIERS as readonly string[]).includes(id)) throw noDirectory(id);
  return id as DirectoryCourier;
}
