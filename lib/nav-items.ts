import {
  ChartColumn,
  ClipboardCheck,
  History,
  KeyRound,
  LayoutDashboard,
  Package,
  ScrollText,
  Settings,
  Truck,
  Waypoints,
  Webhook,
  type LucideIcon,
} from "lucide-react";
import type { AccountChoice } from "./account";

/** `roles`: who sees the item in the selected account (everyone when absent). The page checks again. */
export type NavItem = { href: string; label: string; icon: LucideIcon; roles?: AccountChoice["role"][] };

/** The sidebar, in order. A page joins the navigation with one line here. */
export const navItems: NavItem[] = [
  { href: "/dashboard", label: "Overview", icon: LayoutDashboard },
  { href: "/dashboard/orders", label: "Orders", icon: Package },
  { href: "/dashboard/validate", label: "Validate", icon: ClipboardCheck },
  { href: "/dashboard/validation-results", label: "Validation results", icon: History },
  { href: "/dashboard/statistics", label: "Statistics", icon: ChartColumn },
  { href: "/dashboard/api-keys", label: "API keys", icon: KeyRound },
  { href: "/dashboard/sources", label: "Sources", icon: Waypoints },
  { href: "/dashboard/courier-profiles", label: "Courier profiles", icon: Truck },
  { href: "/dashboard/webhooks", label: "Webhooks", icon: Webhook },
  { href: "/dashboard/audit-log", label: "Audit log", icon: ScrollText, roles: ["owner", "staff"] },
  // Everyone sees the settings; members read them only (the page says so, the service refuses their changes).
  { href: "/dashboard/settings", label: "Settings", icon: Settings },
];
