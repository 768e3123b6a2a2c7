/**
 * The browser's autofill token (HTML's `autocomplete`) of each typed part of a US postal
 * address, as the address forms (a letter's addresses, the community's return address) use it.
 */
export const ADDRESS_AUTOFILL = {
  name: "name",
  line1: "address-line1",
  line2: "address-line2",
  city: "address-level2",
  state: "address-level1",
  zip: "postal-code",
} as const;

export type TypedAddressPart = keyof typeof ADDRESS_AUTOFILL;
