import { describe, expect, it } from 'vitest'
import { business } from './business.ts'
import { keywordReplies, sendTimeWords, textKeyword, textSendTime } from './texting.ts'

describe('texting hours (08:00 to 21:00, New Jersey time)', () => {
  it.each([
    ['a text in the afternoon goes at once', '2027-01-12T19:00:00Z', '2027-01-12T19:00:00.000Z'],
    ['at 08:00 exactly it goes', '2027-01-12T13:00:00Z', '2027-01-12T13:00:00.000Z'],
    ['at 20:59 it goes', '2027-01-13T01:59:00Z', '2027-01-13T01:59:00.000Z'],
    ['at 21:00 it waits for the next 08:00', '2027-01-13T02:00:00Z', '2027-01-13T13:00:00.000Z'],
    ['at 22:30 it waits for the next 08:00', '2027-01-13T03:30:00Z', '2027-01-13T13:00:00.000Z'],
    ['at 06:15 it waits for 08:00 that day', '2027-01-12T11:15:00Z', '2027-01-12T13:00:00.000Z'],
    ['on the night clocks go forward, 08:00 is EDT', '2027-03-14T04:30:00Z', '2027-03-14T12:00:00.000Z'],
    ['on the night clocks go back, 08:00 is EST', '2027-11-07T02:30:00Z', '2027-11-07T13:00:00.000Z'],
  ])('%s', (_, written, goes) => {
    expect(textSendTime(new Date(written)).toISOString()).toBe(goes)
  })

  it('says when a held text goes as the console shows it', () => {
    expect(sendTimeWords(new Date('2027-01-13T13:00:00Z'))).toBe('8:00 AM Wednesday')
  })
})

describe('the keywords a shopper texts', () => {
  it.each([
    ['STOP', 'stop'],
    ['stop', 'stop'],
    [' Stop. ', 'stop'],
    ['STOPALL', 'stop'],
    ['unsubscribe', 'stop'],
    ['Cancel', 'stop'],
    ['END', 'stop'],
    ['quit!', 'stop'],
    ['START', 'start'],
    ['help', 'help'],
    ['Please stop texting me', undefined],
    ['Can we start on Monday?', undefined],
    ['toString', undefined],
  ])('%j is %s', (body, keyword) => {
    expect(textKeyword(body)).toBe(keyword)
  })

  it('answers HELP with the dealer’s name and phone, and each reply names the dealer', () => {
    expect(keywordReplies.help).toContain(business.tollFree.display)
    for (const reply of Object.values(keywordReplies)) expect(reply.startsWith(`${business.name}:`)).toBe(true)
  })
})
