/** The roles an admin gives a user or a token (members come from Coder's sign-in). */
export const ASSIGNABLE_ROLES = [
  { value: "viewer", label: "viewer" },
  { value: "admin", label: "admin" },
];
