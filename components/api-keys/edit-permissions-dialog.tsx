"use client";

import { Pencil } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from "@/components/ui/dialog";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { Tooltip } from "@/components/ui/tooltip";
import { api } from "@/trpc/react";
import { API_KEY_PERMISSIONS, permissionDescriptions, type ApiKeyPermission } from "@/lib/api-key-permissions";

type Key = { id: string; name: string; permissions: ApiKeyPermission[] };

export function EditPermissionsDialog({ accountId, apiKey }: { accountId: string; apiKey: Key }) {
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<ApiKeyPermission[]>(apiKey.permissions);
  const utils = api.useUtils();
  const update = api.apiKeys.update.useMutation({
    onSuccess: async () => {
      setOpen(false);
      toast.success(`Permissions of “${apiKey.name}” saved`);
      await utils.apiKeys.list.invalidate({ accountId });
    },
    onError: (error) => toast.error(error.message),
  });

  function onOpenChange(next: boolean) {
    if (next) setSelected(apiKey.permissions);
    setOpen(next);
  }

  function toggle(permission: ApiKeyPermission, on: boolean) {
    setSelected((current) =>
      on
        ? API_KEY_PERMISSIONS.filter((p) => p === permission || current.includes(p))
        : current.filter((p) => p !== permission),
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <Tooltip content="Edit permissions">
        <DialogTrigger asChild>
          <Button variant="ghost" size="sm" aria-label={`Edit permissions of ${apiKey.name}`}>
            <Pencil aria-hidden className="size-3.5" />
          </Button>
        </DialogTrigger>
      </Tooltip>
      <DialogContent
        title={`Permissions of “${apiKey.name}”`}
        description="What requests with this key may do. Changes apply to the next request."
      >
        <fieldset className="space-y-3">
          <legend className="sr-only">Permissions</legend>
          {API_KEY_PERMISSIONS.map((permission) => (
            <div key={permission} className="flex items-start gap-3">
              <Checkbox
                id={`permission-${permission}`}
                className="mt-0.5"
                checked={selected.includes(permission)}
                onCheckedChange={(value) => toggle(permission, value === true)}
              />
              <label htmlFor={`permission-${permission}`} className="text-sm">
                <span className="font-mono text-slate-900">{permission}</span>
                <span className="block text-slate-500">{permissionDescriptions[permission]}</span>
              </label>
            </div>
          ))}
        </fieldset>
        {selected.length === 0 ? (
          <Notice tone="warning" className="mt-4">
            Without permissions, every request with this key is refused.
          </Notice>
        ) : null}
        <DialogFooter>
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button disabled={update.isPending} onClick={() => update.mutate({ id: apiKey.id, permissions: selected })}>
            {update.isPending ? <Spinner /> : null}
            Save permissions
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
