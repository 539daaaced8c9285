import { useEffect, useMemo, useRef } from 'react';
import type { FlowInputDefinition } from '#shared/flows/definition.ts';
import { workbookProblem } from '#shared/flows/launch-checks.ts';
import { useUploadColumnsQuery } from '../../../api/flows.ts';
import { launcher as text } from '../../../i18n/es-launcher.ts';
import { guessColumns, isWorkbookName, uploadedFiles } from '../launcherModel.ts';
import type { LauncherForm } from '../useLauncherForm.ts';
import { ChoiceField } from './ChoiceField.tsx';
import { FieldMessage } from './FieldMessage.tsx';

type Mapping = Record<string, string | null>;

function readMapping(value: string | undefined): Mapping {
  if (!value) return {};
  try {
    const parsed = JSON.parse(value) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Mapping) : {};
  } catch {
    return {};
  }
}

/**
 * A ColumnMapping input: once its source workbook is uploaded, one choice per column the robot needs,
 * among the workbook's headers (GET uploads/:id/columns), preselected by the column's header hints;
 * 'Sin asignar' leaves one out. Its value is mapped key -> header, '' while nothing is mapped.
 */
export function ColumnMappingInput({ input, launcherForm }: { input: FlowInputDefinition; launcherForm: LauncherForm }) {
  const { form, rules, setText, touch, setWorkbookProblem } = launcherForm;
  const source = input.config?.source ?? '';
  const columns = useMemo(() => input.config?.columns ?? [], [input.config?.columns]);
  const workbook = uploadedFiles(form.watch(source)).find((file) => isWorkbookName(file.name));
  const uploadId = workbook?.uploadId;
  const { data, isFetching, isError } = useUploadColumnsQuery(uploadId ?? '', { skip: uploadId === undefined });
  const mapping = readMapping(form.watch(input.key));
  const guessedFor = useRef<string | null>(null);
  const key = input.key;

  const save = (next: Mapping) => {
    const anyMapped = Object.values(next).some((header) => header !== null);
    setText(key, anyMapped ? JSON.stringify(next) : '');
  };

  // A new workbook gets fresh guesses; a workbook removed takes the mapping with it.
  useEffect(() => {
    if (uploadId === undefined) {
      if (guessedFor.current !== null) setText(key, '');
      guessedFor.current = null;
      return;
    }
    if (data === undefined || isFetching || guessedFor.current === uploadId) return;
    guessedFor.current = uploadId;
    const guessed = guessColumns(columns, data.columns);
    setText(key, Object.values(guessed).some((header) => header !== null) ? JSON.stringify(guessed) : '');
  }, [uploadId, data, isFetching, columns, key, setText]);

  // An empty workbook, or one with no header the robot knows, cannot be launched: said here, with the headers expected.
  const ready = uploadId !== undefined && data !== undefined && !isFetching;
  const problem = ready ? (workbookProblem(columns, data, mapping) ?? undefined) : undefined;
  useEffect(() => {
    setWorkbookProblem(key, problem);
  }, [key, problem, setWorkbookProblem]);
  useEffect(() => () => setWorkbookProblem(key, undefined), [key, setWorkbookProblem]);

  const error = form.errors[key];
  const rule = rules[key] ?? {};
  const headers = data?.columns ?? [];
  return (
    <fieldset className={`launcher-input launcher-mapping${error ? ' launcher-input--invalid' : ''}`}>
      <legend className="app-field__label">{input.label}{rule.required ? ' *' : ''}</legend>
      {input.help && <p className="ui-muted launcher-input__help">{input.help}</p>}
      {uploadId === undefined && <p className="ui-muted">{text.inputs.mappingWaiting}</p>}
      {uploadId !== undefined && isFetching && <p className="ui-muted" role="status">{text.inputs.mappingLoading}</p>}
      {uploadId !== undefined && isError && !isFetching && <p role="alert" className="launcher-input__failure">{text.inputs.mappingFailed}</p>}
      {uploadId !== undefined && data !== undefined && !isFetching && (
        <>
          <p className="ui-muted">{text.inputs.mappingSheet(data.sheet, text.cost.rows(data.rowCount))}</p>
          <div className="launcher-mapping__grid">
            {columns.map((column) => (
              <ChoiceField
                key={column.key}
                label={column.label}
                options={headers.map((header) => ({ value: header, label: header }))}
                value={mapping[column.key] ?? ''}
                emptyLabel={text.inputs.unassigned}
                emptySelectable
                onChange={(header) => save({ ...Object.fromEntries(columns.map((each) => [each.key, mapping[each.key] ?? null])), [column.key]: header === '' ? null : header })}
                onBlur={() => touch(key)}
              />
            ))}
          </div>
        </>
      )}
      <FieldMessage id={`${key}-mapping-error`} error={error} rule={rule} />
    </fieldset>
  );
}
