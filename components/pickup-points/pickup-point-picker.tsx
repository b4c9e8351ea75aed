"use client";

import { Map as MapIcon, Search } from "lucide-react";
import dynamic from "next/dynamic";
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { Page } from "@/server/services/pagination";
import type { PickupPointView } from "@/server/services/pickup-points/search-pickup-points";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/cn";
import { hasIndexedWord, MIN_INDEXED_WORD } from "@/lib/pickup-point-search";
import { compactOpeningHours, isoDay } from "./opening-hours";
import type { LatLon } from "./pickup-point-map";

// Leaflet needs `window`: the map is loaded in the browser only, and the list never waits for it.
const PickupPointMap = dynamic(() => import("./pickup-point-map").then((m) => m.PickupPointMap), { ssr: false });

/** One search of one courier's directory, as the contract's GET /couriers/{courier}/pickup-points takes it. */
export type PickupPointQuery = {
  courier: string;
  q?: string;
  near?: LatLon;
  radiusKm?: number;
  country?: string;
  weightKg?: number;
  cod?: boolean;
  pageSize?: number;
};

export type PickupPointPickerProps = {
  /** The couriers whose points are offered together (e.g. ["packeta", "ppl"]). */
  couriers: string[];
  /** Only points in this country (ISO, e.g. "CZ"). */
  country?: string;
  /** Only points that take a parcel of this weight. */
  weightKg?: number;
  /** Only points where cash on delivery can be paid. */
  cod?: boolean;
  /** Where to look first: the recipient's town or zip; the points nearest its first match are listed. */
  place?: string;
  /** The data source: tRPC in the dashboard, the REST API with a publishable key in the checkout widget. */
  search: (query: PickupPointQuery) => Promise<Page<PickupPointView>>;
  onSelect: (point: PickupPointView) => void;
  /** The id of the point chosen now, marked in the list. */
  selectedId?: string | null;
  /** Map tiles (`MAP_TILE_URL`); OpenStreetMap's by default. */
  tileUrl?: string;
  tileAttribution?: string;
  /** Display names of the couriers, e.g. { ppl: "PPL" }. */
  courierNames?: Record<string, string>;
};

const PAGE_SIZE = 20;
const DEBOUNCE_MS = 300;
/** How far around a place the nearest points are looked for. */
const NEAR_RADIUS_KM = 25;

type Request = { text: string; centre: LatLon | null };
/** The answer to the search named by `key`; while `key` is not the current search's, that search is loading. */
type Answer = { key: string; status: "ready" | "error"; points: PickupPointView[]; near: boolean };

const WIDE = "(min-width: 768px)";
const subscribeToWidth = (onChange: () => void) => {
  const query = window.matchMedia(WIDE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};

export const pointKey = (p: Pick<PickupPointView, "courier" | "id">) => `${p.courier}:${p.id}`;

const NETWORK_NAMES: Record<string, string> = {
  packeta: "Packeta point",
  zbox: "Z-BOX",
  alzabox: "AlzaBox",
  parcelshop: "PPL ParcelShop",
  parcelbox: "PPL ParcelBox",
};

const networkName = (p: PickupPointView) => NETWORK_NAMES[p.network] ?? p.network;

/** Each courier's answers one after another, the first of each first: no courier's points bury the other's. */
function interleave(pages: PickupPointView[][]): PickupPointView[] {
  const out: PickupPointView[] = [];
  for (let i = 0; out.length < pages.reduce((n, p) => n + p.length, 0); i++)
    for (const page of pages) if (page[i]) out.push(page[i]);
  return out;
}

const formatDistance = (km: number) => (km < 1 ? `${Math.round(km * 1000)} m` : `${km.toFixed(1)} km`);

/**
 * Search, list and map of pickup points of one or more couriers. With a place (typed, the recipient's town or zip,
 * or the map's centre) the list is the nearest points to it, by distance; with nothing to go by, the directory's
 * own order. The list is a listbox: arrow keys move, Enter picks. It works alone, without the map's tiles.
 */
export function PickupPointPicker({
  couriers,
  country,
  weightKg,
  cod,
  place,
  search,
  onSelect,
  selectedId,
  tileUrl,
  tileAttribution,
  courierNames = {},
}: PickupPointPickerProps) {
  const ids = useId();
  const [text, setText] = useState(place ?? "");
  const [request, setRequest] = useState<Request>({ text: place?.trim() ?? "", centre: null });
  const [answer, setAnswer] = useState<Answer>({ key: "", status: "ready", points: [], near: false });
  const [active, setActive] = useState(0);
  const [retries, setRetries] = useState(0);
  // The map starts open where there is room beside the list; on a phone the list comes first and the map on demand.
  const wide = useSyncExternalStore(
    subscribeToWidth,
    () => window.matchMedia(WIDE).matches,
    () => false,
  );
  const [mapChoice, setMapChoice] = useState<boolean | null>(null);
  const showMap = mapChoice ?? wide;
  const listbox = useRef<HTMLUListElement>(null);
  const searchField = useRef<HTMLInputElement>(null);
  // The field is in the server's HTML before its script has run, and a shopper types into it at once. Hydration keeps
  // what the DOM holds but not in state, so the next render would write the state's text over it: take the typed text
  // into state before anything renders again (keystrokes after hydration arrive through onChange).
  useLayoutEffect(() => {
    const typed = searchField.current?.value ?? "";
    setText((current) => (typed !== current ? typed : current));
  }, []);
  const couriersKey = couriers.join(",");
  const searchKey = JSON.stringify([request, couriersKey, country, weightKg, cod, retries]);

  // Typing searches once the typist pauses, and once there is a word to look up by ("Br" would find half the
  // country, and the API refuses it): until then the last answer stays.
  const tooShort = text.trim() !== "" && !hasIndexedWord(text);
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed && !hasIndexedWord(trimmed)) return;
    const timer = setTimeout(
      () => setRequest((r) => (r.text === trimmed ? r : { text: trimmed, centre: null })),
      DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [text]);

  useEffect(() => {
    let stale = false;
    const filters = { country, weightKg, cod, pageSize: PAGE_SIZE };
    const each = (query: Omit<PickupPointQuery, "courier">) =>
      Promise.all(couriersKey.split(",").map((courier) => search({ courier, ...filters, ...query })));
    const nearest = async (centre: LatLon, q?: string) => {
      const pages = await each({ near: centre, radiusKm: NEAR_RADIUS_KM, q });
      return pages
        .flatMap((p) => p.items)
        .sort((a, b) => (a.distanceKm ?? 0) - (b.distanceKm ?? 0))
        .slice(0, PAGE_SIZE);
    };
    async function run(): Promise<{ points: PickupPointView[]; near: boolean }> {
      if (request.centre) return { points: await nearest(request.centre, request.text || undefined), near: true };
      const pages = await each(request.text ? { q: request.text } : {});
      const first = pages.flatMap((p) => p.items)[0];
      if (!request.text || !first) return { points: interleave(pages.map((p) => p.items)), near: false };
      // The first match stands for the place typed: its neighbours, nearest first (itself at 0 m).
      const around = await nearest({ lat: first.latitude, lon: first.longitude });
      return around.length ? { points: around, near: true } : { points: [first], near: false };
    }
    run().then(
      (found) => {
        if (stale) return;
        setAnswer({ key: searchKey, status: "ready", ...found });
        setActive(0);
      },
      () => {
        if (!stale) setAnswer({ key: searchKey, status: "error", points: [], near: false });
      },
    );
    return () => {
      stale = true;
    };
  }, [searchKey, request, couriersKey, country, weightKg, cod, search]);

  // While the next search runs, the last answer stays on screen, dimmed.
  const loading = answer.key !== searchKey;
  const points = answer.points;
  const selectedKey = useMemo(() => {
    const selected = points.find((p) => p.id === selectedId);
    return selected ? pointKey(selected) : null;
  }, [points, selectedId]);
  const optionId = (i: number) => `${ids}-option-${i}`;
  const activeId = optionId(active);

  useEffect(() => {
    if (document.activeElement === listbox.current)
      document.getElementById(activeId)?.scrollIntoView({ block: "nearest" });
  }, [activeId]);

  const choose = useCallback((point: PickupPointView) => onSelect(point), [onSelect]);

  function onListKey(event: React.KeyboardEvent<HTMLUListElement>) {
    const last = points.length - 1;
    const move: Record<string, number> = {
      ArrowDown: Math.min(active + 1, last),
      ArrowUp: Math.max(active - 1, 0),
      Home: 0,
      End: last,
      PageDown: Math.min(active + 5, last),
      PageUp: Math.max(active - 5, 0),
    };
    if (event.key in move) {
      event.preventDefault();
      setActive(move[event.key]!);
    } else if ((event.key === "Enter" || event.key === " ") && points[active]) {
      event.preventDefault();
      choose(points[active]);
    }
  }

  const today = isoDay(new Date());
  const status = tooShort
    ? `Type at least ${MIN_INDEXED_WORD} letters of a town, street or name, or a zip`
    : loading
      ? "Searching…"
      : answer.status === "error" || points.length === 0
        ? ""
        : `${points.length} ${points.length === 1 ? "point" : "points"}${answer.near ? ", nearest first" : ""}`;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-end gap-2">
        <div className="min-w-0 flex-1 space-y-1.5">
          <label htmlFor={`${ids}-search`} className="block text-sm font-medium text-slate-800">
            Town, zip, street or name
          </label>
          <div className="relative">
            <Search aria-hidden className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-slate-500" />
            <Input
              ref={searchField}
              id={`${ids}-search`}
              type="search"
              value={text}
              autoComplete="off"
              className="pl-8"
              aria-controls={`${ids}-list`}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "ArrowDown" && points.length) {
                  event.preventDefault();
                  listbox.current?.focus();
                } else if (event.key === "Enter") {
                  event.preventDefault();
                  if (!tooShort) setRequest({ text: text.trim(), centre: null });
                }
              }}
            />
          </div>
        </div>
        <Button
          variant="secondary"
          aria-expanded={showMap}
          aria-controls={`${ids}-map`}
          onClick={() => setMapChoice(!showMap)}
        >
          <MapIcon aria-hidden className="size-4" />
          {showMap ? "Hide map" : "Show map"}
        </Button>
      </div>
      <p className="min-h-5 text-sm text-slate-600" aria-live="polite">
        {status}
      </p>
      <div className={cn("grid gap-3", showMap && "md:grid-cols-2")}>
        <div aria-busy={loading} className="min-w-0">
          {!loading && answer.status === "error" ? (
            <Notice tone="error">
              The pickup points could not be loaded.{" "}
              <button type="button" className="underline" onClick={() => setRetries((n) => n + 1)}>
                Try again
              </button>
            </Notice>
          ) : !loading && points.length === 0 ? (
            <Notice>No open pickup point matches. Try a town, a zip or a street.</Notice>
          ) : points.length === 0 ? (
            <p className="flex items-center gap-2 p-3 text-sm text-slate-600">
              <Spinner /> Loading pickup points…
            </p>
          ) : (
            <ul
              ref={listbox}
              id={`${ids}-list`}
              role="listbox"
              tabIndex={0}
              aria-label="Pickup points"
              aria-activedescendant={points[active] ? optionId(active) : undefined}
              onKeyDown={onListKey}
              className={cn(
                "group max-h-[26rem] divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200 bg-white",
                "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600",
                loading && "opacity-60",
              )}
            >
              {points.map((point, i) => {
                const hours = compactOpeningHours(point.openingHours, today);
                const selected = pointKey(point) === selectedKey;
                return (
                  <li
                    key={pointKey(point)}
                    id={optionId(i)}
                    role="option"
                    aria-selected={selected}
                    onClick={() => {
                      setActive(i);
                      choose(point);
                    }}
                    className={cn(
                      "cursor-pointer px-3 py-2.5 text-sm",
                      // The active option is marked only while the list has focus: elsewhere it would look chosen.
                      i === active &&
                        "group-focus:bg-blue-50 group-focus:ring-2 group-focus:ring-blue-600 group-focus:ring-inset",
                      selected && "bg-blue-100",
                    )}
                  >
                    <div className="flex items-start justify-between gap-2">
                      <span className="font-medium text-slate-900">{point.name}</span>
                      {point.distanceKm !== undefined ? (
                        <span className="shrink-0 text-xs font-medium text-slate-700">
                          {formatDistance(point.distanceKm)}
                        </span>
                      ) : null}
                    </div>
                    <div className="text-slate-700">
                      {point.street}, {point.zip} {point.city}
                    </div>
                    <div className="mt-1 flex flex-wrap gap-x-2 gap-y-0.5 text-xs text-slate-600">
                      <span className="font-medium text-slate-800">
                        {point.type === "LOCKER" ? "Locker" : "Point"} · {networkName(point)}
                        {couriers.length > 1 ? ` · ${courierNames[point.courier] ?? point.courier}` : ""}
                      </span>
                      <span>{point.cod ? "Cash on delivery" : "No cash on delivery"}</span>
                      {point.cardPayment ? <span>Card</span> : null}
                      {point.maxWeightKg !== null ? <span>Up to {point.maxWeightKg} kg</span> : null}
                      {selected ? <span className="font-medium text-blue-800">Chosen</span> : null}
                    </div>
                    {hours ? <div className="mt-0.5 text-xs text-slate-600">{hours}</div> : null}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        {showMap ? (
          <div id={`${ids}-map`} role="region" aria-label="Map of the listed points" className="h-64 md:h-auto">
            <PickupPointMap
              points={points}
              selectedKey={selectedKey}
              keyOf={pointKey}
              onPick={choose}
              onSearchArea={(centre) => {
                setText("");
                setRequest({ text: "", centre });
              }}
              tileUrl={tileUrl}
              tileAttribution={tileAttribution}
            />
          </div>
        ) : null}
      </div>
    </div>
  );
}
