import { badField } from "@/server/errors";
import { labelFormatSchema, type LabelFormat } from "@/server/labels/label-format";
import type { LabelFile } from "@/server/services/labels/render-shipping-labels";
import { single } from "./query";

/** `?format=`: absent means `pdf-a6`; anything but the known formats is a 400 naming `format`. */
export function labelFormatOf(url: URL): LabelFormat {
  const result = labelFormatSchema.safeParse(single(url, "format"));
  if (!result.success) throw badField("format", result.error.issues[0]!.message);
  return result.data;
}

/**
 * A label answer named after its reference number. A PDF opens in the browser unless `attachment` asks to
 * save it; ZPL is always saved, as a browser has nothing to show it with.
 */
export function labelResponse(file: LabelFile, { attachment = false }: { attachment?: boolean } = {}): Response {
  const disposition = attachment || file.extension === "zpl" ? "attachment" : "inline";
  return new Response(Buffer.from(file.body), {
    status: 200,
    headers: {
      "content-type": file.contentType,
      "content-disposition": `${disposition}; filename="${file.filename}"`,
      "cache-control": "private, no-store",
    },
  });
}
