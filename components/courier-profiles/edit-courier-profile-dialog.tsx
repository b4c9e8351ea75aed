"use client";

import { Pencil } from "lucide-react";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { fieldErrors, toastUnlessFieldErrors } from "@/lib/form-errors";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from "@/components/ui/dialog";
import { describedBy, Field, TextField } from "@/components/ui/field";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import type { CourierProfileView } from "@/server/services/courier-profiles/schemas";
import { api } from "@/trpc/react";
import { collectSettings, focusFirstInvalid, SettingsFields, settingsState } from "./settings-fields";

// Radix Select items cannot have an empty value; this one stands for "no service: the courier's first".
const FIRST_SERVICE = "__first_service__";

/** Renames a profile or changes its default service and settings; its courier stays (orders were made with it). */
export function EditCourierProfileDialog({ accountId, profile }: { accountId: string; profile: CourierProfileView }) {
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const courier = couriers.find((c) => c.id === profile.courier);
  const [open, setOpen] = useState(false);
  const [service, setService] = useState(profile.service ?? FIRST_SERVICE);
  const [settings, setSettings] = useState(() => settingsState(courier, profile.settings));
  const form = useRef<HTMLFormElement>(null);
  const utils = api.useUtils();
  const update = api.courierProfiles.update.useMutation({
    onSuccess: async (changed) => {
      setOpen(false);
      toast.success(`Courier profile “${changed.name}” saved`);
      await utils.courierProfiles.list.invalidate({ accountId });
    },
    onError: (error) => {
      toastUnlessFieldErrors(error);
      requestAnimationFrame(() => focusFirstInvalid(form.current));
    },
  });
  const errorOf = fieldErrors(update.error);
  const prefix = `edit-profile-${profile.id}`;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      update.reset();
      setSettings(settingsState(courier, profile.settings));
      setService(profile.service ?? FIRST_SERVICE);
    }
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    // An empty secret is left out of the PATCH, which keeps the saved one.
    const parsed = collectSettings(settings, { keepSecrets: true });
    if ("errors" in parsed) {
      update.reset();
      setSettings({ ...settings, errors: parsed.errors });
      requestAnimationFrame(() => focusFirstInvalid(form.current));
      return;
    }
    update.mutate({
      id: profile.id,
      changes: {
        name: String(data.get("name") ?? ""),
        service: service === FIRST_SERVICE ? null : service,
        settings: parsed.settings,
      },
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Edit ${profile.name}`}>
          <Pencil aria-hidden className="size-4" />
          Edit
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Edit ${profile.name}`}
        description={`A ${courier?.name ?? profile.courier} profile. Orders already created keep what they were created with.`}
      >
        <form ref={form} onSubmit={submit} noValidate className="space-y-4">
          <TextField
            id={`${prefix}-name`}
            name="name"
            label="Name"
            defaultValue={profile.name}
            maxLength={100}
            required
            error={errorOf("name")}
          />
          <Field
            id={`${prefix}-service`}
            label="Default service"
            hint="Used when an order names no service."
            error={errorOf("service")}
          >
            <Select value={service} onValueChange={setService}>
              <SelectTrigger
                id={`${prefix}-service`}
                aria-describedby={describedBy(`${prefix}-service`, { hint: true, error: errorOf("service") })}
              />
              <SelectContent>
                <SelectItem value={FIRST_SERVICE}>
                  {courier?.services[0]
                    ? `The courier's first: ${courier.services[0].name} (${courier.services[0].code})`
                    : "The courier's first service"}
                </SelectItem>
                {courier?.services.map((s) => (
                  <SelectItem key={s.code} value={s.code}>
                    {`${s.name} (${s.code})`}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
          <SettingsFields
            idPrefix={prefix}
            courier={courier}
            state={settings}
            onChange={setSettings}
            serverError={errorOf}
            serverErrorFields={update.error?.data?.errors?.map((e) => e.field) ?? []}
            saved={profile.settings}
          />
          <DialogFooter>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? <Spinner /> : null}
              Save changes
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
