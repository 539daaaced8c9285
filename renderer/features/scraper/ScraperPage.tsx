import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { parseMacro } from '#shared/macros/definition.ts';
import { partsOf, selectorOf } from '#shared/macros/locator.ts';
import { useLauncherSubscriptionQuery } from '../../api/account.ts';
import { problemsOf, useCreateMacroMutation } from '../../api/macros.ts';
import { pickLocalCertificate } from '../../api/macrosBridge.ts';
import type { PageCertificate, ScrapeCandidate } from '../../api/macrosBridge.ts';
import { useBridge, useEmbedded, usePrompt } from '../../app/hooks.ts';
import { macros, needsDesktop } from '../../i18n/es-macros.ts';
import { Button, PageCertificateField, IconGlobe, InfoCard, PageHeader, TextField } from '../../ui/index.ts';
import { DEFAULT_MAX_PAGES, DEFAULT_NEXT_TARGET, hostOf, outputNameFor, scrapeMacro } from './scraperModel.ts';
import '../../ui/robot-tools.css';
import './scraper.css';

const text = macros.scraper;
const URL_PATTERN = /^https?:\/\/[^\s]+$/;
/** Rows of each candidate shown before saving. */
const PREVIEW_ROWS = 5;

/** A fresh step id (the schema's alphabet). */
function newId(): string {
  return `s${Math.random().toString(36).slice(2, 11).padEnd(9, '0')}`;
}

function Preview({ candidate, index }: { candidate: ScrapeCandidate; index: number }) {
  const rows = candidate.rows.slice(0, PREVIEW_ROWS);
  return (
    <div className="sb-preview" role="region" aria-label={text.previewLabel(index)} tabIndex={0}>
      <table>
        <caption className="ui-muted sb-small">{text.preview(rows.length, candidate.total)}</caption>
        <thead>
          <tr>{candidate.header.map((cell, at) => <th key={at} scope="col">{cell}</th>)}</tr>
        </thead>
        <tbody>
          {rows.map((row, at) => <tr key={at}>{row.map((cell, column) => <td key={column}>{cell}</td>)}</tr>)}
        </tbody>
      </table>
    </div>
  );
}

/**
 * /scraper (issue 41 §4): from a URL (and a certificate of this PC, if the page asks), the desktop's
 * robot browser finds the page's tables and repeated blocks; the user picks one, names a list's
 * columns, and saves it as a macro that copies them to an .xlsx (page by page with 'Siguiente'),
 * then schedules it in the launcher.
 */
export default function ScraperPage() {
  const bridge = useBridge();
  const embedded = useEmbedded();
  const prompt = usePrompt();
  const ids = useId();
  const subscription = useLauncherSubscriptionQuery();
  const [createMacro, creating] = useCreateMacroMutation();
  const [url, setUrl] = useState('https://');
  const [urlError, setUrlError] = useState<string | undefined>();
  const [certificate, setCertificate] = useState<PageCertificate | null>(null);
  const [busy, setBusy] = useState<'certificate' | 'analyse' | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [analysed, setAnalysed] = useState<{ url: string; candidates: ScrapeCandidate[] } | null>(null);
  const [chosen, setChosen] = useState(0);
  const [columns, setColumns] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [outputFileName, setOutputFileName] = useState('');
  const [paginate, setPaginate] = useState(false);
  const [nextTarget, setNextTarget] = useState(DEFAULT_NEXT_TARGET);
  const [maxPages, setMaxPages] = useState(DEFAULT_MAX_PAGES);
  const [saved, setSaved] = useState<{ id: string; flowId: string; name: string } | null>(null);
  // What an analysis or a save shows next takes the focus (the button pressed may be gone).
  const savedHeading = useRef<HTMLHeadingElement>(null);
  const foundHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (saved) savedHeading.current?.focus();
  }, [saved]);
  useEffect(() => {
    if (analysed) foundHeading.current?.focus();
  }, [analysed]);

  if (!bridge.available) {
    return (
      <main className="ui-page sb-page">
        <PageHeader title={text.title} subtitle={text.subtitle} />
        <InfoCard title={text.webTitle} icon={<IconGlobe />}>
          <p>{text.webText}</p>
          <ol className="sb-steps-help">{needsDesktop.steps.map((step) => <li key={step}>{step}</li>)}</ol>
          <Link className="ui-button ui-button--secondary" to="/workspace">{needsDesktop.workspace}</Link>
        </InfoCard>
      </main>
    );
  }

  const chooseCertificate = async () => {
    setBusy('certificate');
    const result = await pickLocalCertificate(bridge, prompt, macros.certificate.pickerTitle, certificate);
    setBusy(null);
    if (!result.ok) setProblems([result.message]);
    else setCertificate(result.certificate);
  };

  const choose = (index: number, candidates: readonly ScrapeCandidate[]) => {
    setChosen(index);
    setColumns((candidates[index]?.fields ?? []).map((field) => field.column));
  };

  const analyse = async () => {
    const target = url.trim();
    if (!URL_PATTERN.test(target) || target === 'https://') {
      setUrlError(macros.recorder.startUrlInvalid);
      return;
    }
    setProblems([]);
    setSaved(null);
    setBusy('analyse');
    const result = await bridge.invoke('PreviewScrape', { url: target, ...(certificate && { certificateFingerprint: certificate.fingerprint }) });
    setBusy(null);
    if (!result.ok) {
      setProblems([text.analyseFailed(result.error.message)]);
      return;
    }
    setAnalysed({ url: target, candidates: result.data.candidates });
    choose(0, result.data.candidates);
    if (name === '') setName(text.defaultName(hostOf(target)));
    if (outputFileName === '') setOutputFileName(outputNameFor(text.defaultName(hostOf(target))));
  };

  const save = async () => {
    if (!analysed) return;
    const candidate = analysed.candidates[chosen];
    if (!candidate) return;
    const definition = scrapeMacro(
      { url: analysed.url, name, outputFileName, candidate, columns, withCertificate: certificate !== null, paginate: paginate ? { target: nextTarget, maxTimes: maxPages } : null },
      newId,
    );
    const parsed = parseMacro(definition);
    if (!parsed.ok) {
      setProblems(parsed.problems);
      return;
    }
    setProblems([]);
    try {
      const created = await createMacro({ source: 'scraper', definition: parsed.macro }).unwrap();
      setSaved({ id: created.id, flowId: created.flowId, name: created.name });
    } catch (error) {
      setProblems(problemsOf(error, text.saveFailed));
    }
  };

  const next = partsOf(nextTarget);
  const nextRole = next.kind === 'role' ? next.role : 'link';
  const nextName = next.kind === 'role' ? next.name : '';
  const candidates = analysed?.candidates ?? [];
  const current = candidates[chosen];

  return (
    <main className="ui-page sb-page">
      <PageHeader title={text.title} subtitle={text.subtitle} />
      {saved ? (
        <section className="ui-card sb-card" aria-labelledby={`${ids}-saved`}>
          <h2 className="sb-section-title" id={`${ids}-saved`} ref={savedHeading} tabIndex={-1}>{text.savedTitle(saved.name)}</h2>
          <p>{text.savedText}</p>
          <div className="sb-actions">
            <Link className="ui-button ui-button--primary" to={`/launcher/${encodeURIComponent(saved.flowId)}`}>{text.schedule}</Link>
            {!embedded && subscription.data?.active && (
              <Link className="ui-button ui-button--secondary" to={`/smartbuilder?robot=${encodeURIComponent(saved.id)}`}>{text.openEditor}</Link>
            )}
            <Button variant="ghost" onClick={() => { setSaved(null); setAnalysed(null); }}>{text.again}</Button>
          </div>
        </section>
      ) : (
        <>
          <section className="ui-card sb-card" aria-label={text.analyse}>
            <TextField
              label={text.url}
              type="url"
              inputMode="url"
              value={url}
              error={urlError}
              reserve={[macros.recorder.startUrlInvalid]}
              onValueChange={(value) => {
                setUrl(value);
                setUrlError(undefined);
              }}
            />
            <p className="ui-muted sb-small sb-hint">{text.urlHelp}</p>
            <PageCertificateField certificate={certificate} choosing={busy === 'certificate'} onChoose={() => void chooseCertificate()} onClear={() => setCertificate(null)} />
            <div className="sb-actions">
              <Button icon={<IconGlobe size={16} />} loading={busy === 'analyse'} onClick={() => void analyse()}>{busy === 'analyse' ? text.analysing : text.analyse}</Button>
            </div>
          </section>

          {analysed && candidates.length === 0 && <p role="status" className="sb-state">{text.noneFound}</p>}
          {analysed && candidates.length > 0 && (
            <section className="ui-card sb-card" aria-labelledby={`${ids}-found`}>
              <h2 className="sb-section-title" id={`${ids}-found`} ref={foundHeading} tabIndex={-1}>{text.candidatesLabel}</h2>
              <ul className="sb-candidates" role="radiogroup" aria-labelledby={`${ids}-found`}>
                {candidates.map((candidate, index) => (
                  <li key={index} className={`sb-candidate${index === chosen ? ' sb-candidate--chosen' : ''}`}>
                    <label className="sb-check">
                      <input type="radio" name={`${ids}-candidate`} checked={index === chosen} onChange={() => choose(index, candidates)} />
                      <strong>{text.candidate(index + 1, candidate.kind, candidate.total)}</strong>
                    </label>
                    <Preview candidate={candidate} index={index + 1} />
                  </li>
                ))}
              </ul>

              {current?.kind === 'list' && (current.fields ?? []).length > 0 && (
                <fieldset className="sb-fields">
                  <legend>{text.columnsTitle}</legend>
                  <div className="sb-columns">
                    {(current.fields ?? []).map((field, index) => (
                      <label key={index} className="sb-field" htmlFor={`${ids}-column-${index}`}>
                        {text.columnName(index + 1)}
                        <input id={`${ids}-column-${index}`} value={columns[index] ?? field.column} onChange={(event) => setColumns((all) => all.map((column, at) => (at === index ? event.target.value : column)))} />
                      </label>
                    ))}
                  </div>
                </fieldset>
              )}

              <div className="sb-grid">
                <label className="sb-field" htmlFor={`${ids}-name`}>
                  {text.robotName}
                  <input id={`${ids}-name`} value={name} maxLength={80} onChange={(event) => setName(event.target.value)} />
                </label>
                <label className="sb-field" htmlFor={`${ids}-output`}>
                  {text.outputFileName}
                  <input id={`${ids}-output`} value={outputFileName} onChange={(event) => setOutputFileName(event.target.value)} />
                </label>
              </div>

              <label className="sb-check">
                <input type="checkbox" checked={paginate} onChange={(event) => setPaginate(event.target.checked)} aria-describedby={`${ids}-paginate-help`} />
                {text.paginate}
              </label>
              <p className="ui-muted sb-small sb-hint" id={`${ids}-paginate-help`}>{text.paginateHelp}</p>
              {paginate && (
                <fieldset className="sb-fields">
                  <legend>{text.nextTarget}</legend>
                  {next.kind === 'role' ? (
                    <div className="sb-row">
                      <label className="sb-field" htmlFor={`${ids}-next-role`}>
                        {macros.smartbuilder.step.role}
                        <select id={`${ids}-next-role`} value={nextRole} onChange={(event) => setNextTarget(selectorOf({ kind: 'role', role: event.target.value, name: nextName, exact: false }))}>
                          <option value="link">enlace</option>
                          <option value="button">botón</option>
                        </select>
                      </label>
                      <label className="sb-field sb-field--grow" htmlFor={`${ids}-next-name`}>
                        {macros.smartbuilder.step.roleName}
                        <input id={`${ids}-next-name`} value={nextName} onChange={(event) => setNextTarget(selectorOf({ kind: 'role', role: nextRole, name: event.target.value, exact: false }))} />
                      </label>
                    </div>
                  ) : (
                    <label className="sb-field" htmlFor={`${ids}-next-selector`}>
                      {macros.smartbuilder.step.selector}
                      <input id={`${ids}-next-selector`} value={nextTarget} onChange={(event) => setNextTarget(event.target.value)} />
                    </label>
                  )}
                  <label className="sb-field" htmlFor={`${ids}-max`}>
                    {text.maxPages}
                    <input id={`${ids}-max`} type="number" min={1} max={500} value={maxPages} onChange={(event) => setMaxPages(Number(event.target.value))} />
                  </label>
                </fieldset>
              )}
              <div className="sb-actions">
                <Button loading={creating.isLoading} onClick={() => void save()}>{creating.isLoading ? text.saving : text.save}</Button>
              </div>
            </section>
          )}
        </>
      )}
      {/* Below the buttons, so a message never pushes them from under the pointer. */}
      {problems.length > 0 && (
        <div className="sb-problems" role="alert">
          <ul>{problems.map((problem, index) => <li key={index}>{problem}</li>)}</ul>
        </div>
      )}
    </main>
  );
}
