import { lazy } from 'react';
import type { ComponentType, LazyExoticComponent } from 'react';

type PageModule = { default: ComponentType };

// One chunk per screen: Vite turns each match into its own dynamic import.
const pageModules = import.meta.glob<PageModule>('../features/*/*Page.tsx');

const cache = new Map<string, LazyExoticComponent<ComponentType>>();

export function pageModuleKey(page: string): string {
  return `../features/${page}.tsx`;
}

/** The lazily loaded screen for a route's `page` ('home/HomePage'), or undefined if it does not exist. */
export function lazyPage(page: string): LazyExoticComponent<ComponentType> | undefined {
  const key = pageModuleKey(page);
  const load = pageModules[key];
  if (!load) return undefined;
  let component = cache.get(key);
  if (!component) {
    component = lazy(load);
    cache.set(key, component);
  }
  return component;
}

/** The import behind lazyPage (one fetch and evaluation either way), to fetch a screen ahead of time. */
export function pageLoader(page: string): (() => Promise<PageModule>) | undefined {
  return pageModules[pageModuleKey(page)];
}

export function hasPage(page: string): boolean {
  return pageModuleKey(page) in pageModules;
}
