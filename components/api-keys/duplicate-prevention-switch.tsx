"use client";

import { toast } from "sonner";
import { Switch } from "@/components/ui/switch";
import { api } from "@/trpc/react";

export function DuplicatePreventionSwitch({
  accountId,
  apiKey,
}: {
  accountId: string;
  apiKey: { id: string; name: string; preventDuplicateOrders: boolean };
}) {
  const utils = api.useUtils();
  const update = api.apiKeys.update.useMutation({
    onSuccess: async (key) => {
      toast.success(`Duplicate prevention ${key.preventDuplicateOrders ? "on" : "off"} for “${key.name}”`);
      await utils.apiKeys.list.invalidate({ accountId });
    },
    onError: (error) => toast.error(error.message),
  });
  // Shows the requested state while saving, so the switch does not jump back until the list reloads.
  const checked =
    update.isPending && update.variables?.preventDuplicateOrders !== undefined
      ? update.variables.preventDuplicateOrders
      : apiKey.preventDuplicateOrders;
  return (
    <Switch
      checked={checked}
      disabled={update.isPending}
      aria-label={`Prevent duplicate orders with ${apiKey.name}`}
      onCheckedChange={(value) => update.mutate({ id: apiKey.id, preventDuplicateOrders: value })}
    />
  );
}
