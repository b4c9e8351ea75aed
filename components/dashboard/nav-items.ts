import { KeyRound, LayoutDashboard, Truck, Waypoints, type LucideIcon } from "lucide-react";

export type NavItem = { href: string; label: string; icon: LucideIcon };

/** The sidebar, in order. A page joins the navigation with one line here. */
export const navItems: NavItem[] = [
  { href: "/dashboard", label: "Overview", icon: LayoutDashboard },
  { href: "/dashboard/api-keys", label: "API keys", icon: KeyRound },
  { href: "/dashboard/sources", label: "Sources", icon: Waypoints },
  { href: "/dashboard/courier-profiles", label: "Courier profiles", icon: Truck },
];
