/** The clinic setting that opens dynamic registration to public clients without an initial access token (on in the demo). */
export const openRegistrationSettingKey = 'smart.openRegistration';
