import { SearchX } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export default function DashboardNotFound() {
  return (
    <EmptyState
      icon={SearchX}
      title="Account not found"
      action={
        <Button asChild variant="secondary">
          <Link href="/dashboard">Go to your dashboard</Link>
        </Button>
      }
    >
      This account does not exist or you are not a member of it.
    </EmptyState>
  );
}
