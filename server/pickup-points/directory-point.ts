import type { OpeningInterval, PointType, SizeCm } from "@/db/schema/pickup-points";

/** A point as the directory holds it (contract "A point", without `distanceKm`). */
export type DirectoryPoint = {
  id: string;
  courier: "packeta" | "ppl";
  type: PointType;
  network: string;
  name: string;
  street: string;
  city: string;
  zip: string;
  country: string;
  latitude: number;
  longitude: number;
  openingHours: OpeningInterval[];
  cod: boolean;
  cardPayment: boolean;
  maxWeightKg: number | null;
  maxSizeCm: SizeCm | null;
  open: boolean;
  closedSince: string | null;
};
