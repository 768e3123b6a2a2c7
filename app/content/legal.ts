/** The Terms of Service and Privacy Policy, shown during sign-up and on their own pages. */

export type LegalDocument = { title: string; sections: { heading: string; body: string }[] };

export function termsOfService(communityName: string): LegalDocument {
  return {
    title: "Terms of Service",
    sections: [
      {
        heading: "Membership",
        body: `${communityName} is a members' community. Your account is yours alone: keep your password private and tell us at once if you think someone else has used it.`,
      },
      {
        heading: "Notices and documents",
        body: "The notice creator helps you prepare documents from templates. The documents are yours; what you send, to whom and when is your decision and your responsibility. Nothing on this site is legal advice.",
      },
      {
        heading: "Payments",
        body: "Subscriptions renew until you cancel them; donations are one-off. Card payments are handled by our payment provider; we never store your card number.",
      },
      {
        heading: "Conduct",
        body: "Treat other members with respect. We may suspend an account that abuses the site, other members or the people who receive notices.",
      },
    ],
  };
}

export function privacyPolicy(communityName: string): LegalDocument {
  return {
    title: "Privacy Policy",
    sections: [
      {
        heading: "What we keep",
        body: `${communityName} keeps your username, e-mail address, name, country, membership status and the documents you create, and a record of your logins (time, address and browser) for security.`,
      },
      {
        heading: "Why",
        body: "To run your membership, to prepare and keep your documents, to keep accounts secure, and to answer your support requests.",
      },
      {
        heading: "Who else sees it",
        body: "Our payment provider, notary provider and learning site receive only what they need to do their part. We do not sell your data.",
      },
      {
        heading: "Your rights",
        body: "You can ask us for a copy of your data, to correct it, or to delete your account, through the Support link at the foot of every page.",
      },
    ],
  };
}
