import { useState } from 'react';
import { AltasDashboard } from './AltasDashboard.tsx';
import { CompaniesView } from './CompaniesView.tsx';
import './altas.css';

/** The dashboard and the company configuration are two views of the same route (/altasybajas). */
type View = 'dashboard' | 'companies';

/**
 * /altasybajas: the registrations received from the client companies ('Pendientes' until Sistema
 * RED has them, then 'Historial'), the desktop actions that register them in RED and A3, and the
 * configuration of companies, groups and the public form.
 */
export default function AltasBajasPage() {
  const [view, setView] = useState<View>('dashboard');
  if (view === 'companies') return <CompaniesView onBack={() => setView('dashboard')} />;
  return <AltasDashboard onOpenCompanies={() => setView('companies')} />;
}
