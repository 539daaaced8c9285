import { Dialog, Modal, ModalOverlay } from 'react-aria-components';
import { es } from '../../i18n/es.ts';
import { IconClose } from '../../ui/icons.tsx';
import { useAppDispatch } from '../hooks.ts';
import { menuClosed } from '../ui.ts';
import { Navigation } from './Navigation.tsx';
import { SideMenu } from './SideMenu.tsx';

/**
 * The menu drawer, opened from the top bar's 'Menú' button: a modal panel from the left with a
 * backdrop. React Aria's Modal traps focus, closes on Escape and on a click on the backdrop, and
 * hands focus back to the button. Below the 900 px breakpoint it also carries the navigation, which
 * no longer fits beside the page (app.css hides the copy that does not apply to the width).
 */
export function Drawer({ open }: { open: boolean }) {
  const dispatch = useAppDispatch();
  return (
    <ModalOverlay
      isOpen={open}
      isDismissable
      onOpenChange={(isOpen) => {
        if (!isOpen) dispatch(menuClosed());
      }}
      className="app-drawer-backdrop"
      data-testid="drawer-backdrop"
    >
      <Modal className="app-drawer">
        <Dialog className="app-drawer__dialog" aria-label={es.sideMenu.title}>
          <div className="app-drawer__head">
            <span className="app-drawer__brand">{es.appName}</span>
            <button type="button" className="ui-icon-button" aria-label={es.common.close} title={es.common.close} onClick={() => dispatch(menuClosed())}>
              <IconClose size={18} />
            </button>
          </div>
          <div className="app-drawer__nav">
            <Navigation onNavigate={() => dispatch(menuClosed())} />
          </div>
          <SideMenu />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
