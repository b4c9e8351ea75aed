"use client";

import { Check, Copy } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Notice } from "@/components/ui/notice";

/** The one moment the full key is visible: a warning, the key and a copy button. */
export function NewApiKey({
  name,
  kind,
  apiKey,
  onDone,
}: {
  name: string;
  kind: "secret" | "publishable";
  apiKey: string;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copyButton = useRef<HTMLButtonElement>(null);
  // The form that asked for the key is gone; focus goes to what the user came for, not to the dialog box.
  useEffect(() => copyButton.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(apiKey);
      setCopied(true);
      toast.success("API key copied to the clipboard");
    } catch {
      // The clipboard needs HTTPS (or localhost) and the user's permission; selecting the key still works.
      toast.error("Copying failed: select the key and copy it yourself.");
    }
  }

  return (
    <div className="space-y-4">
      <Notice tone="warning">
        <strong>Copy this key now: it will not be shown again.</strong> Only a fingerprint of it is stored. If you lose
        it, create a new key and revoke this one.
      </Notice>
      <div>
        <p className="mb-1.5 text-sm font-medium text-slate-800">API key “{name}”</p>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-stretch">
          <code
            data-testid="new-api-key"
            className="flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 select-all"
          >
            {apiKey}
          </code>
          <Button ref={copyButton} variant="secondary" onClick={copy} className="justify-center sm:h-auto">
            {copied ? <Check aria-hidden className="size-4 text-green-600" /> : <Copy aria-hidden className="size-4" />}
            {copied ? "Copied" : "Copy"}
          </Button>
        </div>
        {kind === "publishable" ? (
          <p className="mt-2 text-xs text-slate-500">
            Put it in your checkout page, as the <code>key</code> of <code>SvcPickupPoints.pick(…)</code> from{" "}
            <code>/widget/pickup-points.js</code>. It is meant to be seen: it only searches pickup points, and only from
            its allowed origins.
          </p>
        ) : (
          <p className="mt-2 text-xs text-slate-500">
            Send it from your servers with every request as <code>X-API-Key: …</code> or{" "}
            <code>Authorization: Bearer …</code>. Never put it in a web page.
          </p>
        )}
      </div>
      <DialogFooter>
        <Button onClick={onDone}>I have stored the key</Button>
      </DialogFooter>
    </div>
  );
}
