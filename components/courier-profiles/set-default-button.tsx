"use client";

import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/trpc/react";

export function SetDefaultButton({ accountId, profile }: { accountId: string; profile: { id: string; name: string } }) {
  const utils = api.useUtils();
  const setDefault = api.courierProfiles.setDefault.useMutation({
    onSuccess: async () => {
      toast.success(`“${profile.name}” is now the default profile`);
      await utils.courierProfiles.list.invalidate({ accountId });
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <Button
      variant="secondary"
      size="sm"
      disabled={setDefault.isPending}
      onClick={() => setDefault.mutate({ id: profile.id })}
      aria-label={`Set default: ${profile.name}`}
    >
      {setDefault.isPending ? <Spinner /> : null}
      Set default
    </Button>
  );
}
