"use client";

import { Plus } from "lucide-react";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { fieldErrors, toastUnlessFieldErrors } from "@/lib/form-errors";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from "@/components/ui/dialog";
import { describedBy, Field, TextField } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { api } from "@/trpc/react";
import { collectSettings, focusFirstInvalid, SettingsFields, settingsState } from "./settings-fields";

// Radix Select items cannot have an empty value; this one stands for "no service: the courier's first".
const FIRST_SERVICE = "__first_service__";

export function CreateCourierProfileDialog({ accountId }: { accountId: string }) {
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const [open, setOpen] = useState(false);
  const [courierId, setCourierId] = useState(couriers[0]?.id ?? "");
  const [service, setService] = useState(FIRST_SERVICE);
  const [isDefault, setIsDefault] = useState(false);
  const courier = couriers.find((c) => c.id === courierId);
  const [settings, setSettings] = useState(() => settingsState(courier));
  const form = useRef<HTMLFormElement>(null);
  const utils = api.useUtils();
  const create = api.courierProfiles.create.useMutation({
    onSuccess: async (profile) => {
      setOpen(false);
      toast.success(`Courier profile “${profile.name}” created${profile.isDefault ? " as the default" : ""}`);
      await utils.courierProfiles.list.invalidate({ accountId });
    },
    onError: (error) => {
      toastUnlessFieldErrors(error);
      // After React has drawn the messages: the first field the server named takes focus.
      requestAnimationFrame(() => focusFirstInvalid(form.current));
    },
  });
  const errorOf = fieldErrors(create.error);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      create.reset();
      setSettings(settingsState(courier));
      setService(FIRST_SERVICE);
      setIsDefault(false);
    }
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = collectSettings(settings, { keepSecrets: false });
    if ("errors" in parsed) {
      create.reset();
      setSettings({ ...settings, errors: parsed.errors });
      requestAnimationFrame(() => focusFirstInvalid(form.current));
      return;
    }
    create.mutate({
      accountId,
      courier: courierId,
      name: String(data.get("name") ?? ""),
      service: service === FIRST_SERVICE ? null : service,
      isDefault,
      settings: parsed.settings,
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden className="size-4" />
          New profile
        </Button>
      </DialogTrigger>
      <DialogContent
        title="New courier profile"
        description="How orders are handed to a courier: the service used when an order names none, and courier settings."
      >
        <form ref={form} onSubmit={submit} noValidate className="space-y-4">
          <Field id="profile-courier" label="Courier" error={errorOf("courier")}>
            <Select
              value={courierId}
              onValueChange={(id) => {
                setCourierId(id);
                setService(FIRST_SERVICE);
                setSettings(settingsState(couriers.find((c) => c.id === id)));
                create.reset();
              }}
            >
              <SelectTrigger id="profile-courier" aria-invalid={errorOf("courier") ? true : undefined} />
              <SelectContent>
                {couriers.map((c) => (
                  <SelectItem
                    key={c.id}
                    value={c.id}
                    description={`${c.services.length} services · parcels up to ${c.maxParcelWeightKg} kg`}
                  >
                    {c.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
          <TextField
            id="profile-name"
            name="name"
            label="Name"
            placeholder="e.g. Express to the Czech Republic"
            maxLength={100}
            required
            error={errorOf("name")}
          />
          <Field
            id="profile-service"
            label="Default service"
            hint="Used when an order names no Service."
            error={errorOf("service")}
          >
            <Select value={service} onValueChange={setService}>
              <SelectTrigger
                id="profile-service"
                aria-describedby={describedBy("profile-service", { hint: true, error: errorOf("service") })}
              />
              <SelectContent>
                <SelectItem value={FIRST_SERVICE}>
                  {courier?.services[0]
                    ? `The courier's first: ${courier.services[0].name} (${courier.services[0].code})`
                    : "The courier's first service"}
                </SelectItem>
                {courier?.services.map((s) => (
                  <SelectItem
                    key={s.code}
                    value={s.code}
                    description={s.requiresPickupPoint ? "Orders need a PickupPoint" : undefined}
                  >
                    {`${s.name} (${s.code})`}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
          <SettingsFields
            idPrefix="profile"
            courier={courier}
            state={settings}
            onChange={setSettings}
            serverError={errorOf}
            serverErrorFields={create.error?.data?.errors?.map((e) => e.field) ?? []}
          />
          <div className="flex items-start justify-between gap-4">
            <div>
              <Label htmlFor="profile-default">Make it the default</Label>
              <p id="profile-default-hint" className="mt-0.5 text-xs text-slate-500">
                Orders for {courier?.name ?? "this courier"} that name no profile use the default. An account&apos;s
                first profile for a courier always is.
              </p>
            </div>
            <Switch
              id="profile-default"
              aria-describedby="profile-default-hint"
              checked={isDefault}
              onCheckedChange={setIsDefault}
            />
          </div>
          <DialogFooter>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? <Spinner /> : null}
              Create profile
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
