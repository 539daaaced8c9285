import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import { signedOut } from './session.ts';

/** Shell state that is not data: the side menu, the payment-required modal and the credit banner's dismissal. */
export interface UiState {
  menuOpen: boolean;
  /** The payment-gated path the user tried to open, while the modal is showing. */
  paymentRequiredFor: string | null;
  /**
   * The credit banner's state the user hid ('warning', 'exceeded'…): hidden for this sign-in while the
   * state stays the same; a new state, or the next sign-in (the Auth route clears it), shows it again.
   */
  creditBannerHidden: string | null;
}

const initialState: UiState = { menuOpen: false, paymentRequiredFor: null, creditBannerHidden: null };

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
    creditBannerHidden(state, action: PayloadAction<string>) {
      state.creditBannerHidden = action.payload;
    },
    /** The Auth route starts from a clean slate (spec §4). */
    uiCleared() {
      return initialState;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, (state) => {
      state.creditBannerHidden = null;
    });
  },
});

export const { menuToggled, menuClosed, paymentRequired, paymentModalClosed, creditBannerHidden, uiCleared } = uiSlice.actions;
