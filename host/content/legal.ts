import { business, listInWords, showrooms } from '../../domain/business.ts'
import { financingOffer, longestTerm } from '../../domain/payment.ts'
import { rentalTerms } from '../../domain/rental-plans.ts'

/**
 * The Privacy Policy and Terms of Service texts (docs/PRODUCT.md: eight and ten sections,
 * effective and updated January 14, 2025, governed by New Jersey law). The privacy policy
 * describes what this site actually does with a contact inquiry and with a price alert's address
 * (api/alerts/: used for that alert only, deleted by api/alerts/alert-upkeep.ts); keep it in step
 * with the code.
 */
export interface LegalSection {
  heading: string
  paragraphs: readonly string[]
}

export interface LegalDocument {
  title: string
  effectiveDate: '2025-01-14'
  updatedDate: '2025-01-14'
  intro: string
  sections: readonly LegalSection[]
}

const name = business.name
const showroomTowns = listInWords(showrooms.map((s) => s.name), 'or')
const { deliveryFeePerMile, freeDeliveryMiles, billingIncrementHours } = rentalTerms

export const privacyPolicy: LegalDocument = {
  title: 'Privacy Policy',
  effectiveDate: '2025-01-14',
  updatedDate: '2025-01-14',
  intro: `This policy explains what information ${name} collects through this website and the forms we embed on partner websites, what we do with it, and how you can ask us to see or delete it. We collect only what we need to answer your questions about buying, renting or servicing a golf cart.`,
  sections: [
    {
      heading: 'Information We Collect',
      paragraphs: [
        'When you send us a message or request a quote, the form collects your first and last name, your email address and, if you choose to give them, your phone number, the product or service you are interested in, and your message.',
        'With each inquiry we also record the address of the page you sent it from and, when the form is embedded on another website, the short label that identifies that form. This tells us which page or partner site your question came from. We do not record anything else about you through the form.',
        'If you ask us to tell you when a cart gets cheaper or when new carts like the ones you searched for arrive, we keep your email address with the cart or search you chose. If you choose notifications in your browser instead, we keep the address your browser gives us for them (no email address).',
        'You can browse this website without giving us any personal information. There are no accounts to create, and we do not take payments online.',
      ],
    },
    {
      heading: 'How We Use and Deliver Your Inquiry',
      paragraphs: [
        `We store each inquiry in our own database and email it to the ${name} team so a salesperson or service advisor can answer you, usually within ${business.claims.replyWithinHours} hours. We may also forward it to our customer management system in ADF/XML, the standard format car and cart dealers use to import sales leads.`,
        'We may also send you a single email confirming that we received your message. We use your contact details only to answer your inquiry and to follow up on it, for example to send a quote, confirm a rental or schedule service.',
        "An address you give us for a price or new-cart alert is used for that alert and nothing else: first one email asking you to confirm (nothing more is sent until you do), then a message when that cart's price drops, it comes off hold or it is sold, or at most one message a day about new carts matching your search. It is never added to a mailing list or passed to a salesperson. Every alert email has a link to stop it with one click, no account needed.",
        'We do not sell or rent your information, and we do not share it with advertisers. The companies that carry our email and run our customer management system handle it only to deliver it to us.',
      ],
    },
    {
      heading: 'Cookies, Analytics and Server Logs',
      paragraphs: [
        'This site does not use advertising trackers or third-party analytics services, and it does not set cookies to track you across pages or other websites.',
        'Like most web servers, ours keeps a basic log of each request: the method, the page or address requested, the response status and how long it took. The log does not contain what you type into our forms.',
        'To stop spam, the site counts recent form submissions from each network address for a short time. Those counts expire on their own and are not used for anything else.',
      ],
    },
    {
      heading: 'Forms Embedded on Partner Websites',
      paragraphs: [
        `Some dealer network and partner websites show our inventory, rental plans or quote form. When you send an inquiry through one of those forms, it comes straight to ${name} and is handled under this policy.`,
        "The partner's own website, including any cookies or analytics it uses, is covered by that partner's privacy policy, not this one.",
      ],
    },
    {
      heading: 'How Long We Keep Information',
      paragraphs: [
        'We keep an inquiry only as long as we need it to answer you and follow up on it. When a conversation turns into a purchase, rental or repair, the paperwork for that transaction is kept as our business records and the law require.',
        `An alert's address is deleted as soon as you stop the alert, seven days after you asked if you never confirmed it, when the alert ends because its cart was sold, and otherwise one year after the last alert we sent you.`,
        'We limit access to inquiries to the staff who need them to help you, and we protect our systems with reasonable safeguards. No website or email system is perfectly secure, so please do not send payment card numbers, Social Security numbers or other sensitive details through the contact form.',
      ],
    },
    {
      heading: 'Your Choices: Access and Deletion',
      paragraphs: [
        'You can ask us what information we hold about you, ask us to correct it, or ask us to delete it. Email us at the address on our Contact page or call our toll-free number, and tell us the name and email address you used.',
        'We will confirm the request with you and act on it promptly. If you would rather not hear from us again, just say so in any reply and we will stop following up.',
      ],
    },
    {
      heading: "Children's Privacy",
      paragraphs: [
        'This website is meant for adults shopping for, renting or servicing golf carts. We do not knowingly collect information from children under 13. If you believe a child has sent us information, contact us and we will delete it.',
      ],
    },
    {
      heading: 'Changes to This Policy and How to Contact Us',
      paragraphs: [
        'If we change how we handle your information, we will update this page and the "last updated" date at the top. Changes apply to information collected after the new date.',
        `Questions about this policy? Call our toll-free number, email us at the address on our Contact page, or visit any ${name} showroom in ${showroomTowns}.`,
      ],
    },
  ],
}

export const termsOfService: LegalDocument = {
  title: 'Terms of Service',
  effectiveDate: '2025-01-14',
  updatedDate: '2025-01-14',
  intro: `These terms apply to your use of the ${name} website and of the ${name} inventory, rental and quote tools embedded on other websites. By using them you agree to these terms. A signed purchase, rental or financing agreement with ${name} governs that transaction, and it controls if it differs from these terms.`,
  sections: [
    {
      heading: 'Use of This Website',
      paragraphs: [
        'You may use this website to learn about our golf carts, rentals and services and to contact us. Please do not misuse it: no automated bulk requests, no attempts to break into or overload our systems, and no false or misleading inquiries sent in someone else\'s name.',
        `The text, photos and design of this site belong to ${name} or are used with permission. Brand names such as Evolution, Denago, Club Car and EZ-GO belong to their owners and are used only to describe the products we sell and service.`,
      ],
    },
    {
      heading: 'Vehicle Information and Pricing',
      paragraphs: [
        'We work to keep our inventory, prices and descriptions accurate, but prices and availability change and are subject to change without notice. A cart shown on the site may already be sold or on hold when you call. Prices shown do not include taxes, registration, title, delivery or dealer-installed options unless we say so.',
        'Specifications such as top speed, range, charging time and dimensions are typical figures for the model. Actual results depend on battery condition, load, terrain, temperature and how the cart is driven. Photos may show optional equipment or a similar cart and are for illustration.',
        'If we list a price or detail in error, we will correct it and tell you before you buy. We are not bound by an obvious mistake.',
      ],
    },
    {
      heading: 'No Online Sales; Quotes',
      paragraphs: [
        'We do not sell carts or take payments on this website. Sending an inquiry or requesting a quote does not reserve a cart or create a sale.',
        'A quote from us is an estimate, not an offer. A sale becomes binding only when you and an authorized member of our staff sign a purchase agreement at one of our showrooms or by another signed document we send you.',
      ],
    },
    {
      heading: 'Financing',
      paragraphs: [
        `${financingOffer.apr}% APR financing is available on ${financingOffer.models} ${financingOffer.condition}, with terms up to ${longestTerm} months. All financing is provided by third-party lenders and is subject to their approval, terms and conditions. Not every buyer will qualify, and rates, terms and eligible models can change.`,
        "The payment calculator on this site gives an estimate only. It does not include taxes or fees and is not a credit offer. Your actual payment is set by the lender's approved terms.",
        `To apply, you will typically need a ${listInWords(financingOffer.documents)}.`,
      ],
    },
    {
      heading: 'Golf Cart Rentals',
      paragraphs: [
        `Rentals are booked by phone, not online. A reservation is confirmed only when we confirm it with you and you sign our rental agreement. Rental periods are billed in ${billingIncrementHours}-hour increments. Keeping a cart past the end of your period renews it at the daily rate shown for your plan. Early returns do not qualify for refunds. Delivery and pickup are free within ${freeDeliveryMiles} miles of our nearest showroom; beyond ${freeDeliveryMiles} miles the delivery fee is ${deliveryFeePerMile} per mile. All rental prices are subject to availability.`,
        "The person who signs the rental agreement must be at least 21 years old. Every driver must be at least 21 and hold a valid driver's license, and the renter must be present at delivery or pickup with that license. Do not carry more passengers than the cart has seats, keep everyone seated with seat belts on while moving, and never drive after drinking or let an unlisted driver take the wheel.",
        "Street-legal carts may be driven only on roads and in places where low-speed vehicles are allowed; in New Jersey that generally means roads with a posted limit of 25 mph or less, and towns, beaches, boardwalks and communities may have their own rules. You are responsible for following those rules, for any tickets, tolls or fines, and for damage or loss beyond the coverage described in your rental agreement. Return the cart in the condition you received it, apart from normal wear.",
      ],
    },
    {
      heading: 'Warranties',
      paragraphs: [
        'New carts come with the manufacturer\'s factory warranty. The manufacturer sets its coverage, length and conditions, and we give you a copy when you buy. As an authorized dealer we perform warranty repairs on the brands we sell.',
        `Pre-owned trade-ins are sold with any remaining factory coverage or with the warranty written into your purchase agreement. If no warranty is written there, the cart is sold as is, to the extent the law allows. ${name} makes no other promises about a cart beyond those in writing, except those the law requires.`,
      ],
    },
    {
      heading: 'Embedded Tools on Partner Websites',
      paragraphs: [
        `Our inventory listings, rental plans, payment calculator and quote form may appear on dealer network and partner websites. The information in those tools comes from ${name}, and inquiries sent through them come directly to us under these terms and our Privacy Policy.`,
        `The rest of a partner's website is run by that partner. ${name} is not responsible for its content, products or privacy practices.`,
      ],
    },
    {
      heading: 'Limitation of Liability',
      paragraphs: [
        `This website and its tools are provided as is, for general information. To the fullest extent the law allows, ${name} is not liable for indirect or consequential losses arising from your use of the site, from errors or delays in its content, or from the site being unavailable.`,
        'Nothing in these terms limits any right you have under New Jersey or federal law that cannot be waived by agreement, or anything we promise you in a signed agreement.',
      ],
    },
    {
      heading: 'Governing Law',
      paragraphs: [
        'These terms are governed by the laws of the State of New Jersey, without regard to its conflict of law rules. Any dispute about this website or these terms will be decided in the state or federal courts located in New Jersey.',
      ],
    },
    {
      heading: 'Changes to These Terms and Contact',
      paragraphs: [
        'We may update these terms from time to time. When we do, we will post the new version on this page and change the "last updated" date at the top. The version posted when you use the site applies to that use.',
        `Questions about these terms? Call our toll-free number, email us at the address on our Contact page, or visit any ${name} showroom in ${showroomTowns}.`,
      ],
    },
  ],
}
