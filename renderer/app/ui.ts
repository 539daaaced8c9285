import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';

/** Shell state that is not data: the side menu and the payment-required modal. */
export interface UiState {
  menuOpen: boolean;
  /** The payment-gated path the user tried to open, while the modal is showing. */
  paymentRequiredFor: string | null;
}

const initialState: UiState = { menuOpen: false, paymentRequiredFor: null };

export const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    menuToggled(state) {
      state.menuOpen = !state.menuOpen;
    },
    menuClosed(state) {
      state.menuOpen = false;
    },
    paymentRequired(state, action: PayloadAction<string>) {
      state.paymentRequiredFor = action.payload;
    },
    paymentModalClosed(state) {
      state.paymentRequiredFor = null;
    },
    /** The Auth route starts from a clean slate (spec §4). */
    uiCleared() {
      return initialState;
    },
  },
});

export const { menuToggled, menuClosed, paymentRequired, paymentModalClosed, uiCleared } = uiSlice.actions;
