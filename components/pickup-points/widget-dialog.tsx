"use client";

import { X } from "lucide-react";
import { useCallback, useEffect, useRef } from "react";
import type { Page } from "@/server/services/pagination";
import type { PickupPointView } from "@/server/services/pickup-points/search-pickup-points";
import { pickedPoint, startingPlace, WIDGET_MESSAGES, type WidgetOptions } from "@/lib/widget-messages";
import { Button } from "@/components/ui/button";
import { PickupPointPicker, type PickupPointQuery } from "./pickup-point-picker";

const COURIER_NAMES = { packeta: "Packeta", ppl: "PPL" };

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** One courier's search through the REST door, with the publishable key (same origin: the page is ours). */
async function searchRest(
  key: string,
  { courier, near, ...filters }: PickupPointQuery,
): Promise<Page<PickupPointView>> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== undefined) query.set(name, String(value));
  if (near) query.set("near", `${near.lat},${near.lon}`);
  const response = await fetch(`/api/v2/couriers/${encodeURIComponent(courier)}/pickup-points?${query.toString()}`, {
    headers: { "x-api-key": key },
  });
  if (!response.ok) throw new Error(`search failed: ${response.status}`);
  return (await response.json()) as Page<PickupPointView>;
}

/**
 * The checkout widget's dialog, inside the frame the widget script opens over the shop's page. It talks to that page
 * only (`postMessage` to the shop's origin), keeps Tab inside itself (the frame is the dialog's whole content),
 * closes on Escape and on its close button.
 */
export function WidgetDialog({ options, tileUrl }: { options: WidgetOptions; tileUrl: string }) {
  const root = useRef<HTMLDivElement>(null);
  const { key, origin } = options;
  const post = useCallback((message: object) => window.parent.postMessage(message, origin), [origin]);
  const close = useCallback(() => post({ type: WIDGET_MESSAGES.closed }), [post]);
  const search = useCallback((query: PickupPointQuery) => searchRest(key, query), [key]);

  useEffect(() => {
    root.current?.querySelector<HTMLElement>("input")?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        close();
        return;
      }
      if (event.key !== "Tab" || !root.current) return;
      const focusable = [...root.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null,
      );
      const first = focusable[0];
      const last = focusable.at(-1);
      if (!first || !last) return;
      const inside = root.current.contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [close]);

  return (
    <div ref={root} className="flex h-dvh flex-col bg-white">
      <header className="flex items-center justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <h1 className="text-base font-semibold">Choose a pickup point</h1>
        <Button variant="ghost" size="icon" aria-label="Close" onClick={close}>
          <X aria-hidden className="size-5" />
        </Button>
      </header>
      <main className="min-h-0 flex-1 overflow-auto p-4">
        <PickupPointPicker
          couriers={options.couriers}
          country={options.country}
          weightKg={options.weightKg}
          cod={options.cod}
          place={startingPlace(options)}
          search={search}
          tileUrl={tileUrl}
          courierNames={COURIER_NAMES}
          onSelect={(point) => post({ type: WIDGET_MESSAGES.picked, point: pickedPoint(point) })}
        />
      </main>
    </div>
  );
}
