"use client";

import { MapPin } from "lucide-react";
import { createContext, useCallback, useContext, useState } from "react";
import type { PickupPointView } from "@/server/services/pickup-points/search-pickup-points";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { api } from "@/trpc/react";
import { PickupPointPicker, type PickupPointQuery } from "./pickup-point-picker";

/** Couriers whose directory the platform keeps: only their pickup-point field gets a picker. */
export const DIRECTORY_COURIERS: readonly string[] = ["packeta", "ppl"];

const MapTileUrl = createContext<string | undefined>(undefined);

/** The operator's map tiles (`MAP_TILE_URL`, read by the page on the server) for every picker below. */
export function MapTiles({ url, children }: { url: string; children: React.ReactNode }) {
  return <MapTileUrl value={url}>{children}</MapTileUrl>;
}

/** What the order says so far, read when the dialog opens: it narrows the points offered. */
export type OrderContext = { country?: string; weightKg?: number; cod?: boolean; place?: string };

/**
 * "Choose…" beside an order's pickup-point field: the picker in a dialog, searching the courier's directory
 * through the dashboard's tRPC door; the chosen point's id goes back to the field.
 */
export function ChoosePickupPoint({
  accountId,
  courier,
  selectedId,
  orderContext,
  onChoose,
  describedBy,
}: {
  accountId: string;
  courier: string;
  selectedId?: string | null;
  orderContext: () => OrderContext;
  onChoose: (point: PickupPointView) => void;
  describedBy?: string;
}) {
  const tileUrl = useContext(MapTileUrl);
  const [open, setOpen] = useState(false);
  const [context, setContext] = useState<OrderContext>({});
  const utils = api.useUtils();
  const search = useCallback(
    (query: PickupPointQuery) => utils.pickupPoints.search.fetch({ accountId, ...query }),
    [utils, accountId],
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) setContext(orderContext());
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary" aria-describedby={describedBy}>
          <MapPin aria-hidden className="size-4" />
          Choose…
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Choose a pickup point"
        description="Type a town, zip, street or name; the nearest points are listed first. Arrow keys move in the list, Enter chooses."
        className="max-w-4xl"
      >
        <PickupPointPicker
          couriers={[courier]}
          {...context}
          search={search}
          selectedId={selectedId}
          tileUrl={tileUrl}
          onSelect={(point) => {
            onChoose(point);
            setOpen(false);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
