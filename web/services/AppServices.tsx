import { createContext, useContext, type ReactNode } from 'react';
import type { AppServices } from '../startApp.ts';

/** The services web/startApp.ts created, for components (which call them from event handlers). */
const Services = createContext<AppServices | null>(null);

export function ServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <Services.Provider value={services}>{children}</Services.Provider>;
}

export function useServices(): AppServices {
  const services = useContext(Services);
  if (!services) throw new Error('useServices() outside <ServicesProvider>: the app was rendered without startApp');
  return services;
}
