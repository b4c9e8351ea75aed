import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { mapTileUrl } from "@/server/pickup-points/map-tiles";
import { publishableKeyOrigins } from "@/server/services/api-keys/find-publishable-key";
import { widgetOptions } from "@/server/widget/options";
import { WidgetDialog } from "@/components/pickup-points/widget-dialog";

export const metadata: Metadata = { title: "Choose a pickup point" };

/**
 * The checkout widget's dialog page, framed by a shop's page (proxy.ts allows exactly the `origin` it names as a
 * frame ancestor). It shows the picker only for an active publishable key that lists that origin: the browser
 * enforces that the framing page is that origin, and this check that the key belongs to it.
 */
export default async function WidgetPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const options = widgetOptions(await searchParams);
  const origins = options ? await publishableKeyOrigins(await getDb(), options.key) : null;
  if (!options || !origins?.includes(options.origin)) {
    return (
      <main className="p-6">
        <h1 className="text-lg font-semibold">The pickup-point picker cannot open here</h1>
        <p className="mt-2 text-sm text-slate-700">
          {options
            ? `The key is not an active publishable key for ${options.origin}.`
            : "The page was opened without a publishable key or the shop's origin."}
        </p>
      </main>
    );
  }
  return <WidgetDialog options={options} tileUrl={mapTileUrl()} />;
}
