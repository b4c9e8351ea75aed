import { redirect } from "next/navigation";
import { AppShell } from "@/components/dashboard/app-shell";
import { NoAccount } from "@/components/dashboard/no-account";
import { TimeZoneProvider } from "@/components/dashboard/time-zone";
import { Toaster } from "@/components/ui/toaster";
import { getSession } from "@/server/auth/next-auth";
import { TRPCReactProvider } from "@/trpc/react";
import { getMyAccounts } from "@/trpc/selected-account";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const session = await getSession();
  if (!session) redirect("/sign-in");
  const accounts = await getMyAccounts();
  const { email, name, isStaff } = session.user;
  return (
    <TRPCReactProvider>
      <TimeZoneProvider accounts={accounts}>
        <AppShell user={{ email, name, isStaff }} accounts={accounts}>
          {accounts.length > 0 ? children : <NoAccount />}
        </AppShell>
      </TimeZoneProvider>
      <Toaster />
    </TRPCReactProvider>
  );
}
