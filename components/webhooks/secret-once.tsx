"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Notice } from "@/components/ui/notice";

/** The one moment a signing secret is visible: a warning, the secret and a copy button. */
export function SecretOnce({ secret, note, onDone }: { secret: string; note: React.ReactNode; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      toast.success("Signing secret copied to the clipboard");
    } catch {
      toast.error("Copying failed: select the secret and copy it yourself.");
    }
  }
  return (
    <div className="space-y-4">
      <Notice tone="warning">
        <strong>Copy this signing secret now: it will not be shown again.</strong> {note}
      </Notice>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-stretch">
        <code
          data-testid="webhook-secret"
          className="flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 select-all"
        >
          {secret}
        </code>
        <Button variant="secondary" onClick={copy} className="justify-center sm:h-auto">
          {copied ? <Check aria-hidden className="size-4 text-green-600" /> : <Copy aria-hidden className="size-4" />}
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      <p className="text-xs text-slate-500">
        Verify each delivery&apos;s <code>webhook-signature</code> with it, using any Standard Webhooks library.
      </p>
      <DialogFooter>
        <Button onClick={onDone}>I have stored the secret</Button>
      </DialogFooter>
    </div>
  );
}
