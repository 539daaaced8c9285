import { useSearchParams } from 'react-router-dom';
import { FormDetail } from './FormDetail.tsx';
import { FormsList } from './FormsList.tsx';
import './forms.css';

/**
 * The document creator's 'Formularios' tab (issue 40 §2): the advisor's online forms, and one form
 * with its editor, public link and submissions. '?form=<id>' opens a form (the notification mail
 * links to /documentcreator?form=<id>); the page's '?tab=formularios' goes with it.
 */
export default function FormsTab() {
  const [params, setParams] = useSearchParams();
  const formId = params.get('form') ?? '';
  const open = (id: string | null) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      next.set('tab', 'formularios');
      if (id === null) next.delete('form');
      else next.set('form', id);
      return next;
    });
  return (
    <div className="forms-tab">
      {formId === '' ? <FormsList onOpen={(id) => open(id)} /> : <FormDetail key={formId} id={formId} onBack={() => open(null)} />}
    </div>
  );
}
