"use client";

import { Star, Truck } from "lucide-react";
import { canWrite, type AccountChoice } from "@/lib/account";
import { ReadOnlyNotice } from "@/components/dashboard/read-only-notice";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { describeSettings, settingsFields } from "@/lib/profile-settings-form";
import { api } from "@/trpc/react";
import { CheckCredentials } from "./check-credentials";
import { CreateCourierProfileDialog } from "./create-courier-profile-dialog";
import { DeleteCourierProfileButton } from "./delete-courier-profile-button";
import { EditCourierProfileDialog } from "./edit-courier-profile-dialog";
import { SetDefaultButton } from "./set-default-button";

export function CourierProfilesPanel({ account }: { account: AccountChoice }) {
  const [profiles] = api.courierProfiles.list.useSuspenseQuery({ accountId: account.id });
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const writable = canWrite(account);
  const courierName = (id: string) => couriers.find((c) => c.id === id)?.name ?? id;
  const courierOf = (id: string) => couriers.find((c) => c.id === id);
  const serviceName = (courier: string, code: string) =>
    couriers.find((c) => c.id === courier)?.services.find((s) => s.code === code)?.name ?? code;

  if (profiles.items.length === 0) {
    return (
      <EmptyState
        icon={Truck}
        title="No courier profiles yet"
        action={writable ? <CreateCourierProfileDialog accountId={account.id} /> : null}
      >
        A profile tells a courier how to ship this account&apos;s orders. Create one to start sending orders, for
        example with the built-in sandbox courier.
      </EmptyState>
    );
  }
  return (
    <>
      {writable ? null : <ReadOnlyNotice what="courier profiles" />}
      <Table>
        <THead>
          <tr>
            <Th>Courier</Th>
            <Th>Name</Th>
            <Th>Default service</Th>
            <Th>Settings</Th>
            {writable ? (
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            ) : null}
          </tr>
        </THead>
        <TBody>
          {profiles.items.map((profile) => (
            <Tr key={profile.id}>
              <Td label="Courier" className="whitespace-nowrap">
                {courierName(profile.courier)}
              </Td>
              <Td>
                <span className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                  {profile.name}
                  {profile.isDefault ? (
                    <Badge tone="blue">
                      <Star aria-hidden className="size-3" />
                      Default
                    </Badge>
                  ) : null}
                </span>
              </Td>
              <Td label="Default service">
                {profile.service ? (
                  serviceName(profile.courier, profile.service)
                ) : (
                  <span>
                    {courierOf(profile.courier)?.services[0]?.name ?? "The courier's first service"}{" "}
                    <span className="text-slate-500">(the courier&apos;s first)</span>
                  </span>
                )}
              </Td>
              <Td label="Settings">
                <ProfileSettings
                  profile={profile}
                  courier={courierOf(profile.courier)}
                  courierName={courierName(profile.courier)}
                />
              </Td>
              {writable ? (
                <Td className="sm:text-right">
                  <span className="inline-flex flex-wrap gap-1 sm:justify-end">
                    {profile.isDefault ? null : <SetDefaultButton accountId={account.id} profile={profile} />}
                    <EditCourierProfileDialog accountId={account.id} profile={profile} />
                    <DeleteCourierProfileButton accountId={account.id} profile={profile} />
                  </span>
                </Td>
              ) : null}
            </Tr>
          ))}
        </TBody>
      </Table>
    </>
  );
}

/** A profile's settings in words (secrets as the server masks them), and for a real courier the credentials check. */
function ProfileSettings({
  profile,
  courier,
  courierName,
}: {
  profile: { id: string; name: string; settings: Record<string, unknown> };
  courier: { settingsSchema: Record<string, unknown>; secretFields: string[]; remote: boolean } | undefined;
  courierName: string;
}) {
  const fields = courier ? settingsFields(courier.settingsSchema, courier.secretFields) : null;
  const described = describeSettings(fields, profile.settings);
  return (
    <div className="max-w-60 space-y-2">
      {described.length > 0 ? (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
          {described.map(({ label, value }) => (
            <div key={label} className="contents">
              <dt className="text-slate-500">{label}</dt>
              <dd className="font-mono break-words text-slate-800">{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <span className="text-slate-500">None</span>
      )}
      {courier?.remote ? <CheckCredentials profile={profile} courierName={courierName} /> : null}
    </div>
  );
}
