"use client";

import { Star, Truck } from "lucide-react";
import { canWrite, type AccountChoice } from "@/lib/account";
import { ReadOnlyNotice } from "@/components/dashboard/read-only-notice";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { api } from "@/trpc/react";
import { CreateCourierProfileDialog } from "./create-courier-profile-dialog";
import { DeleteCourierProfileButton } from "./delete-courier-profile-button";
import { EditCourierProfileDialog } from "./edit-courier-profile-dialog";
import { SetDefaultButton } from "./set-default-button";

export function CourierProfilesPanel({ account }: { account: AccountChoice }) {
  const [profiles] = api.courierProfiles.list.useSuspenseQuery({ accountId: account.id });
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const writable = canWrite(account);
  const courierName = (id: string) => couriers.find((c) => c.id === id)?.name ?? id;
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
                  <span className="text-slate-500">Courier&apos;s first</span>
                )}
              </Td>
              <Td label="Settings">
                {Object.keys(profile.settings).length > 0 ? (
                  <pre className="max-w-xs overflow-x-auto rounded bg-slate-50 px-2 py-1 font-mono text-xs text-slate-700">
                    {JSON.stringify(profile.settings, null, 2)}
                  </pre>
                ) : (
                  <span className="text-slate-500">None</span>
                )}
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
