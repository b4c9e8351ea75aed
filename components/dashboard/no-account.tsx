import { Building2 } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

export function NoAccount() {
  return (
    <EmptyState icon={Building2} title="You are not a member of any account">
      Ask an owner of your company&apos;s account to add you, then sign in again.
    </EmptyState>
  );
}
