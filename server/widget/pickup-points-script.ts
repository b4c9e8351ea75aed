import { WIDGET_MESSAGES, type PickedPoint } from "@/lib/widget-messages";

type PickOptions = {
  key: string;
  couriers?: string[];
  country?: string;
  weightKg?: number;
  cod?: boolean;
  /** The checkout's zip or town: the dialog opens on the points nearest to it. */
  zip?: string;
  city?: string;
};
type Callback = (point: PickedPoint | null) => void;
type Messages = typeof WIDGET_MESSAGES;

/**
 * The checkout widget, run on the shop's page: `SvcPickupPoints.pick(options, callback)` opens a modal `<dialog>`
 * holding an iframe of the platform's dialog page, and calls back once with the point chosen or null. Messages are
 * taken only from that iframe's window at the platform's origin, and the page posts only to the shop's origin, so
 * neither side listens to anyone else. The modal dialog keeps the shop's page inert; the frame keeps focus inside
 * itself and says when it is closed (Escape, its close button); a click on the backdrop closes it too; focus goes
 * back to what had it before.
 *
 * Served as this function's source (`widgetScript`), with no build step: it must stay self-contained (no imports
 * used inside, nothing that compiles to a helper outside it).
 */
function installWidget(fallbackOrigin: string, messages: Messages): void {
  const w = window as unknown as { SvcPickupPoints?: unknown };
  if (w.SvcPickupPoints) return;
  const script = document.currentScript as HTMLScriptElement | null;
  const appOrigin = script?.src ? new URL(script.src).origin : fallbackOrigin;
  let closeOpen: ((value: PickedPoint | null) => void) | null = null;

  const style = document.createElement("style");
  style.textContent =
    "dialog.svc-pickup-points::backdrop{background:rgba(15,23,42,.55)}" +
    "dialog.svc-pickup-points{padding:0;border:0;border-radius:12px;width:min(960px,100vw - 32px);height:min(720px,100dvh - 32px);" +
    "max-width:100vw;max-height:100dvh;overflow:hidden;box-shadow:0 20px 50px rgba(15,23,42,.35)}" +
    "@media (max-width:600px){dialog.svc-pickup-points{width:100vw;height:100dvh;border-radius:0}}" +
    "dialog.svc-pickup-points iframe{display:block;width:100%;height:100%;border:0}";
  document.head.append(style);

  function pick(options: PickOptions, callback: Callback): void {
    if (!options || typeof options.key !== "string")
      throw new TypeError("SvcPickupPoints.pick: options.key is required");
    if (typeof callback !== "function") throw new TypeError("SvcPickupPoints.pick: a callback is required");
    closeOpen?.(null);
    const opener = document.activeElement as HTMLElement | null;
    const params = new URLSearchParams({ key: options.key, origin: window.location.origin });
    if (options.couriers?.length) params.set("couriers", options.couriers.join(","));
    if (options.country) params.set("country", options.country);
    if (options.weightKg !== undefined && options.weightKg !== null) params.set("weightKg", String(options.weightKg));
    if (options.cod) params.set("cod", "true");
    if (typeof options.zip === "string" && options.zip.trim()) params.set("zip", options.zip.trim());
    if (typeof options.city === "string" && options.city.trim()) params.set("city", options.city.trim());

    const dialog = document.createElement("dialog");
    dialog.className = "svc-pickup-points";
    dialog.setAttribute("aria-label", "Choose a pickup point");
    const frame = document.createElement("iframe");
    frame.title = "Choose a pickup point";
    frame.src = `${appOrigin}/widget/pickup-points?${params.toString()}`;
    dialog.append(frame);
    document.body.append(dialog);

    let done = false;
    function finish(value: PickedPoint | null): void {
      if (done) return;
      done = true;
      closeOpen = null;
      window.removeEventListener("message", onMessage);
      dialog.close();
      dialog.remove();
      opener?.focus?.();
      callback(value);
    }
    function onMessage(event: MessageEvent): void {
      if (event.origin !== appOrigin || event.source !== frame.contentWindow) return;
      const data = event.data as { type?: unknown; point?: Record<string, unknown> } | null;
      if (!data || typeof data !== "object") return;
      if (data.type === messages.closed) finish(null);
      else if (data.type === messages.picked && data.point && typeof data.point === "object") {
        const p = data.point;
        const text = (name: string) => (typeof p[name] === "string" ? (p[name] as string) : "");
        finish({
          courier: text("courier"),
          id: text("id"),
          type: text("type"),
          name: text("name"),
          street: text("street"),
          city: text("city"),
          zip: text("zip"),
          country: text("country"),
        });
      }
    }
    window.addEventListener("message", onMessage);
    // Escape while the shop's side of the dialog has focus (the frame handles its own).
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      finish(null);
    });
    // The frame fills the dialog: a click whose target is the dialog itself fell on the backdrop.
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) finish(null);
    });
    closeOpen = finish;
    dialog.showModal();
    frame.focus();
  }

  w.SvcPickupPoints = { pick };
}

/** The script `/widget/pickup-points.js` serves: `installWidget` run with the platform's origin as a fallback. */
export const widgetScript = (publicOrigin: string): string =>
  `"use strict";(${installWidget.toString()})(${JSON.stringify(publicOrigin)},${JSON.stringify(WIDGET_MESSAGES)});\n`;
