import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { ComponentType } from 'react';
import FrumecarPage from './frumecar/FrumecarPage.tsx';
import OnlineFormPage from './onlineform/OnlineFormPage.tsx';
import OAuthResponsePage from './oauth/OAuthResponsePage.tsx';
import InfoPage from './info/InfoPage.tsx';
import FormPage from './form/FormPage.tsx';

afterEach(cleanup);

const notAvailable = 'Esta sección aún no está disponible en esta versión.';

// Every area that this version does not provide yet: its title and an empty state that says so.
const comingSoon: [string, ComponentType, string][] = [
  ['Frumecar', FrumecarPage, 'Próximamente'],
];

describe('area screens with honest empty states', () => {
  it.each(comingSoon)('%s shows its title and says it is not available yet', (title, Page, emptyTitle) => {
    render(
      <MemoryRouter>
        <Page />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeTruthy();
    const empty = screen.getByRole('region', { name: emptyTitle });
    expect(empty.textContent).toContain(notAvailable);
  });
});

// Public pages open outside the app (links in emails, OAuth pop-ups): each one leads back into it.
const publicPages: [string, ComponentType][] = [
  ['/oauth-response', OAuthResponsePage],
  ['/online-form', OnlineFormPage],
  ['/info', InfoPage],
  ['/form', FormPage],
];

describe('public pages', () => {
  it.each(publicPages)('%s links back to the start of the app', (_path, Page) => {
    render(
      <MemoryRouter>
        <Page />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Ir al inicio de AutoAsesor' }).getAttribute('href')).toBe('/');
  });
});
