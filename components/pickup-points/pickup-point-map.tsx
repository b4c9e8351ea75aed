"use client";

import "leaflet/dist/leaflet.css";
import type { LayerGroup, Map as LeafletMap } from "leaflet";
import { useEffect, useRef, useState } from "react";
import type { PickupPointView } from "@/server/services/pickup-points/search-pickup-points";
import { DEFAULT_MAP_TILE_URL } from "@/lib/map-tiles";
import { Button } from "@/components/ui/button";
import { pickupPointTooltip } from "./map-tooltip";

export const DEFAULT_TILE_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

export type LatLon = { lat: number; lon: number };

/** Czechia's middle: where the map looks before any point is listed. */
const START: [number, number] = [49.8, 15.5];

/**
 * The listed points on a Leaflet map; clicking a marker picks it. Only a help for the mouse: the list beside it does
 * everything, so a map whose tiles never load (no internet, a blocked tile host) shows a note and nothing breaks.
 * Leaflet touches `window` when loaded, hence the import inside the effect.
 */
export function PickupPointMap({
  points,
  selectedKey,
  keyOf,
  onPick,
  onSearchArea,
  tileUrl = DEFAULT_MAP_TILE_URL,
  tileAttribution = DEFAULT_TILE_ATTRIBUTION,
}: {
  points: PickupPointView[];
  selectedKey: string | null;
  keyOf: (point: PickupPointView) => string;
  onPick: (point: PickupPointView) => void;
  onSearchArea: (centre: LatLon) => void;
  tileUrl?: string;
  tileAttribution?: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<{ map: LeafletMap; markers: LayerGroup; L: typeof import("leaflet") } | null>(null);
  const [ready, setReady] = useState(false);
  const [tilesFailed, setTilesFailed] = useState(false);
  // The latest callbacks, so the markers' click handlers never call a stale one.
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  }, [onPick]);

  useEffect(() => {
    let cancelled = false;
    void import("leaflet").then((L) => {
      if (cancelled || !container.current) return;
      const created = L.map(container.current, { center: START, zoom: 7, keyboard: false });
      L.tileLayer(tileUrl, { attribution: tileAttribution, maxZoom: 19 })
        .on("tileerror", () => setTilesFailed(true))
        .addTo(created);
      map.current = { map: created, markers: L.layerGroup().addTo(created), L };
      setReady(true);
    });
    return () => {
      cancelled = true;
      map.current?.map.remove();
      map.current = null;
    };
  }, [tileUrl, tileAttribution]);

  useEffect(() => {
    const current = map.current;
    if (!ready || !current) return;
    const { L, markers } = current;
    markers.clearLayers();
    for (const point of points) {
      const selected = keyOf(point) === selectedKey;
      L.circleMarker([point.latitude, point.longitude], {
        radius: selected ? 10 : 7,
        color: selected ? "#1d4ed8" : "#334155",
        weight: 2,
        fillColor: point.type === "LOCKER" ? "#f59e0b" : "#2563eb",
        fillOpacity: 0.85,
      })
        .bindTooltip(pickupPointTooltip(point.name, document))
        .on("click", () => pick.current(point))
        .addTo(markers);
    }
    if (points.length > 0) {
      current.map.fitBounds(L.latLngBounds(points.map((p) => [p.latitude, p.longitude])), {
        padding: [24, 24],
        maxZoom: 15,
      });
    }
  }, [ready, points, selectedKey, keyOf]);

  return (
    <div className="relative h-full min-h-64 overflow-hidden rounded-md border border-slate-200 bg-slate-100">
      <div ref={container} className="absolute inset-0" data-testid="pickup-point-map" />
      {ready ? (
        <Button
          variant="secondary"
          size="sm"
          className="absolute top-2 right-2 z-[1000]"
          onClick={() => {
            const centre = map.current?.map.getCenter();
            if (centre) onSearchArea({ lat: centre.lat, lon: centre.lng });
          }}
        >
          Search this area
        </Button>
      ) : null}
      {tilesFailed ? (
        // Above the attribution, clear of the zoom buttons and the markers' middle.
        <p className="absolute inset-x-2 bottom-8 z-[1000] rounded bg-white/90 px-2 py-1 text-xs text-slate-700 shadow-sm">
          Map tiles could not be loaded; the list works without them.
        </p>
      ) : null}
    </div>
  );
}
