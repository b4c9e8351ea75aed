export { StatisticsPageSkeleton as default } from "@/components/statistics/statistics-skeleton";
