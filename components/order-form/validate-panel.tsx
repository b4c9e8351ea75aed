"use client";

import Link from "next/link";
import { useState } from "react";
import { withAccount } from "@/lib/account";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { api } from "@/trpc/react";
import { JsonValidation } from "./json-validation";
import { isRecord, type OrderDraft } from "@/lib/order-form/order-draft";
import { OrderForm } from "./order-form";

/**
 * Courier and profile first (they decide the rules), then the order as a form or as pasted JSON. With
 * `canCreate` the order can also be created; `draft` starts it from an order as it was sent, with the
 * courier and profile it was sent to.
 */
export function ValidatePanel({
  accountId,
  canCreate = false,
  draft,
}: {
  accountId: string;
  canCreate?: boolean;
  draft?: OrderDraft;
}) {
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const [profiles] = api.courierProfiles.list.useSuspenseQuery({ accountId });
  const [courierId, setCourierId] = useState(
    couriers.find((c) => c.id === draft?.courierId)?.id ?? couriers[0]?.id ?? "",
  );
  const ofCourier = profiles.items.filter((p) => p.courier === courierId);
  const [chosenProfile, setChosenProfile] = useState<string | null>(draft?.profileId ?? null);
  const profileId =
    ofCourier.find((p) => p.id === chosenProfile)?.id ??
    ofCourier.find((p) => p.isDefault)?.id ??
    ofCourier[0]?.id ??
    null;
  const courier = couriers.find((c) => c.id === courierId);

  return (
    <div className="space-y-6">
      <section
        aria-label="Courier"
        className="grid gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm sm:grid-cols-2"
      >
        <Field id="validate-courier" label="Courier">
          <Select
            value={courierId}
            onValueChange={(id) => {
              setCourierId(id);
              setChosenProfile(null);
            }}
          >
            <SelectTrigger id="validate-courier" />
            <SelectContent>
              {couriers.map((c) => (
                <SelectItem key={c.id} value={c.id}>
                  {c.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </Field>
        <Field
          id="validate-profile"
          label="Courier profile"
          hint="Its default service applies when the order names none."
        >
          <Select value={profileId ?? undefined} onValueChange={setChosenProfile} disabled={ofCourier.length === 0}>
            <SelectTrigger
              id="validate-profile"
              placeholder="No profile for this courier"
              aria-describedby="validate-profile-hint"
            />
            <SelectContent>
              {ofCourier.map((p) => (
                <SelectItem key={p.id} value={p.id} description={p.isDefault ? "Default profile" : undefined}>
                  {p.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </Field>
      </section>
      {!courier || profileId === null ? (
        <Notice tone="warning">
          Orders are {canCreate ? "created with" : "validated against"} a courier profile, and this account has none for{" "}
          {courier?.name ?? "this courier"} yet.{" "}
          <Link className="underline" href={withAccount("/dashboard/courier-profiles", accountId)}>
            Create a courier profile
          </Link>{" "}
          first.
        </Notice>
      ) : (
        <Tabs defaultValue={draft && !isRecord(draft.request) ? "json" : "form"}>
          <TabsList aria-label="How to enter the order">
            <TabsTrigger value="form">Form</TabsTrigger>
            <TabsTrigger value="json">Paste JSON</TabsTrigger>
          </TabsList>
          <TabsContent value="form">
            <OrderForm
              key={`${courier.id}:${profileId}`}
              accountId={accountId}
              courier={courier}
              profileId={profileId}
              initial={draft?.request}
              canCreate={canCreate}
            />
          </TabsContent>
          <TabsContent value="json">
            <JsonValidation
              accountId={accountId}
              courierId={courier.id}
              profileId={profileId}
              initialText={draft ? JSON.stringify(draft.request, null, 2) : undefined}
              canCreate={canCreate}
            />
          </TabsContent>
        </Tabs>
      )}
    </div>
  );
}
