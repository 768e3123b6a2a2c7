/**
 * The words and limits of the account rules that pages show as they are typed. Apart from
 * the schemas (./account), so a light page can show them without the schema library.
 */

export const USERNAME_RULE = "3 to 32 characters: lower-case letters, digits, _ and -";
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const PASSWORD_HINT = `${PASSWORD_MIN} to ${PASSWORD_MAX} characters; a common password is refused.`;

/** How long the link of an imported member's invitation works. */
export const INVITATION_TTL_DAYS = 14;
