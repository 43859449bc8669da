// Constants only: the DTOs' documentation and the pricing code read them without loading the validation decorators.
export const MAX_DESTINATION_PRICES = 300;
export const MAX_ALLOWED_DESTINATIONS = 300;
export const MAX_PREFIX_DIGITS = 7;
export const E164_PREFIX = new RegExp(`^[0-9]{1,${MAX_PREFIX_DIGITS}}$`);
export const E164_DESTINATION = /^\+[0-9]{7,15}$/;
