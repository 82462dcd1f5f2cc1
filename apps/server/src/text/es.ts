/**
 * Every word the server writes for people, in Spanish: emails, PDFs, calendar files, CSV exports
 * and the names of the files it hands out. Spanish addresses the reader as usted (checked by
 * text.test.ts). `en.ts` must have exactly these keys; `{{name}}` marks a parameter `t` fills in.
 * Data only: the templates and PDF builders lay these texts out.
 */
export const es = {
  email: {
    greeting: 'Hola, {{name}}:',
    automatic: 'Este mensaje lo envió {{clinic}} automáticamente; no hace falta responder.',
    copyLink: 'Si el botón no funciona, copie este enlace en su navegador:',
    verifyEmail: {
      subject: 'Confirme su correo en {{clinic}}',
      body: 'Gracias por registrarse en {{clinic}}. Confirme su dirección de correo para poder iniciar sesión.',
      expiry: 'El enlace caduca en {{hours}} horas.',
      action: 'Confirmar mi correo',
      ignore: 'Si usted no creó esta cuenta, ignore este mensaje.',
    },
    resetPassword: {
      subject: 'Restablezca su contraseña de {{clinic}}',
      body: 'Recibimos una solicitud para restablecer su contraseña. Elija una nueva con este enlace.',
      expiry: 'El enlace caduca en {{hours}} hora y solo sirve una vez.',
      action: 'Elegir una contraseña nueva',
      ignore: 'Si no lo pidió usted, ignore este mensaje: su contraseña no cambia.',
    },
    invitation: {
      subject: 'Le invitaron a {{clinic}}',
      body: '{{inviter}} le invitó a {{clinic}} con el rol de {{roles}}.',
      password: 'Cree su contraseña con este enlace. Caduca en {{days}} días.',
      action: 'Aceptar la invitación',
      ignore: 'Si no esperaba esta invitación, ignore este mensaje.',
    },
    patientInvitation: {
      subject: 'Su cuenta de paciente en {{clinic}}',
      body: '{{inviter}} le registró como paciente en {{clinic}}.',
      password:
        'Elija su contraseña con este enlace para ver sus citas y entrar a sus videoconsultas. Caduca en {{days}} días.',
      action: 'Elegir mi contraseña',
      ignore: 'Si usted no pidió una cita en {{clinic}}, ignore este mensaje.',
    },
    registrationAttempt: {
      subject: 'Intento de registro con su correo en {{clinic}}',
      body: 'Alguien intentó crear una cuenta nueva con su dirección de correo, pero usted ya tiene una.',
      signIn: 'Puede iniciar sesión en {{link}}. Si olvidó su contraseña, restablézcala con el botón.',
      action: 'Restablecer mi contraseña',
      ignore: 'Si fue usted, no hace falta hacer nada más. Si no, su cuenta sigue segura.',
    },
    passwordChanged: {
      subject: 'Su contraseña de {{clinic}} cambió',
      body: 'La contraseña de su cuenta acaba de cambiar y se cerraron las demás sesiones.',
      warning: 'Si no fue usted, restablézcala de inmediato y avise a la clínica.',
      action: 'Restablecer mi contraseña',
    },
    appointment: {
      withDoctor: 'con {{name}}',
      withPatient: 'con su paciente {{name}}',
      action: 'Ver la cita',
      calendar: 'Adjuntamos la cita para su calendario (archivo .ics).',
      reason: 'Motivo: {{reason}}',
      cancelledBy: {
        you: 'usted',
        patient: 'el paciente',
        doctor: 'el médico',
        staff: 'la clínica',
      },
    },
    appointmentBooked: {
      subject: 'Cita confirmada en {{clinic}}',
      body: 'Su cita {{withWhom}} quedó confirmada para el {{when}}.',
    },
    appointmentRescheduled: {
      subject: 'Su cita en {{clinic}} cambió de hora',
      body: 'Su cita {{withWhom}} pasó del {{previous}} al {{when}}.',
    },
    appointmentCancelled: {
      subject: 'Cita cancelada en {{clinic}}',
      body: 'Su cita {{withWhom}} del {{when}} fue cancelada por {{by}}.',
    },
    appointmentReminder: {
      subjectTomorrow: 'Recordatorio: cita en {{clinic}} mañana',
      subjectInOneHour: 'Recordatorio: cita en {{clinic}} en una hora',
      body: 'Le recordamos su cita {{withWhom}} el {{when}}.',
    },
    waitlistSlotFreed: {
      subject: 'Se liberó un hueco con {{doctor}} en {{clinic}}',
      body: 'Se liberó una cita con {{doctor}} el {{when}}.',
      advice: 'Si le interesa, resérvela cuanto antes: el primero que la reserve se la queda.',
      action: 'Ver los horarios',
      why: 'Recibe este aviso porque está en la lista de espera de este médico.',
    },
    visitSummary: {
      subject: 'Resumen de su consulta en {{clinic}}',
      body: '{{doctor}} firmó la nota de su consulta del {{when}}.',
      attachment:
        'Le adjuntamos el resumen en PDF: diagnósticos, plan y recomendaciones, medicación recetada y las constantes que nos comunicó. También lo encontrará en su historia clínica.',
      action: 'Ver la consulta',
      safety: 'El resumen contiene datos de salud: guárdelo en un lugar seguro.',
    },
  },
  ics: {
    summary: 'Cita en {{clinic}}: {{doctor}} y {{patient}}',
    description: 'Consulta por vídeo en {{clinic}} el {{when}}.\nEntre a la cita desde: {{link}}',
  },
  pdf: {
    common: {
      patient: 'Paciente',
      doctor: 'Médico',
      dateOfBirth: 'Fecha de nacimiento',
      license: 'N.º de licencia profesional',
      notGiven: 'No consta',
    },
    prescription: {
      title: 'Receta médica',
      specialties: 'Especialidades',
      issuedAt: 'Fecha de emisión',
      dose: 'Dosis',
      route: 'Vía',
      frequency: 'Frecuencia',
      duration: 'Duración',
      quantity: 'Cantidad',
      instructions: 'Indicaciones',
      notes: 'Notas',
      verification: 'Código de verificación',
      verifyAt: 'Compruebe la validez de esta receta en',
      cancelled: 'ANULADA',
      cancelledOn: 'Receta anulada el',
      reason: 'Motivo',
      signature: 'Firma del médico',
    },
    visitSummary: {
      title: 'Resumen de la consulta',
      visit: 'Fecha de la consulta',
      diagnoses: 'Diagnósticos',
      primary: 'principal',
      plan: 'Plan y recomendaciones',
      prescriptions: 'Medicación recetada en esta consulta',
      vitals: 'Constantes comunicadas por el paciente',
      reportedAt: 'Comunicadas el',
      signedAt: 'Nota firmada electrónicamente el',
      none: 'No consta',
      footer:
        'Este resumen recoge lo esencial de la consulta. Si tiene dudas o empeora, contacte con la clínica.',
      vitalNames: {
        temperatureC: 'Temperatura',
        heartRateBpm: 'Frecuencia cardiaca',
        systolicMmHg: 'Presión arterial',
        diastolicMmHg: 'Presión arterial',
        respiratoryRate: 'Frecuencia respiratoria',
        oxygenSaturation: 'Saturación de oxígeno',
        weightKg: 'Peso',
        heightCm: 'Altura',
        glucoseMgDl: 'Glucosa',
      },
      perMinute: 'lpm',
      breathsPerMinute: 'rpm',
    },
    record: {
      title: 'Resumen de su historia clínica',
      intro:
        'Copia preparada el {{exportedAt}}. Este documento resume su historia clínica para que usted pueda leerla; la copia completa, que otros programas y centros sanitarios pueden leer, está en el archivo record.json que lo acompaña.',
      zone: 'Todas las horas de este documento están en {{zone}}.',
      personal: 'Datos personales',
      name: 'Nombre',
      sex: 'Sexo',
      phone: 'Teléfono',
      email: 'Correo electrónico',
      address: 'Dirección',
      bloodType: 'Grupo sanguíneo',
      allergies: 'Alergias',
      conditions: 'Enfermedades',
      medications: 'Medicación',
      visits: 'Consultas',
      prescriptions: 'Recetas',
      documents: 'Documentos',
      none: 'No consta ninguna.',
      noneDocuments: 'No consta ninguno.',
      reaction: 'reacción',
      ended: 'dada por terminada el {{date}}',
      since: 'desde el {{date}}',
      until: 'hasta el {{date}}',
      reason: 'Motivo',
      diagnoses: 'Diagnósticos',
      withDoctor: 'con {{name}}',
      code: 'código de verificación',
      cancelled: 'ANULADA',
      summaryKind: 'Resumen de consulta',
      notInZip: 'no se pudo incluir el archivo',
      footer:
        'Si algún dato no es correcto, comuníquelo a la clínica. Las notas que el médico aún no ha firmado y los documentos retirados no forman parte de esta copia.',
      sexes: { female: 'Mujer', male: 'Hombre', other: 'Otro', unknown: 'No consta' },
      severities: { mild: 'leve', moderate: 'moderada', severe: 'grave', unknown: 'gravedad no indicada' },
      conditionStatuses: { active: 'activa', resolved: 'resuelta' },
      statuses: {
        requested: 'solicitada',
        confirmed: 'confirmada',
        checked_in: 'en sala de espera',
        in_progress: 'en curso',
        completed: 'realizada',
        cancelled: 'cancelada',
        no_show: 'no acudió',
      },
      categories: {
        lab: 'Análisis',
        imaging: 'Imagen',
        referral: 'Derivación',
        report: 'Informe',
        other: 'Otro',
      },
    },
  },
  exportReadme: {
    title: 'HISTORIA CLÍNICA DE {{patient}}',
    exported: '{{clinic}} — exportada el {{exportedAt}}',
    requestedByPatient: 'Copia solicitada por usted.',
    requestedByAdministrator:
      'Copia preparada por la administración de la clínica a petición; el motivo consta en record.json y en el registro de auditoría.',
    contents: 'Este archivo ZIP contiene una copia completa de su historia clínica:',
    summaryFile:
      '  resumen-historia-clinica.pdf\n    Un resumen para leer: sus datos, alergias, enfermedades, medicación, consultas,\n    recetas y documentos, con las horas en la zona horaria de su cuenta.',
    recordFile:
      '  record.json\n    Todos los datos en formato JSON, legible por otros programas y sistemas de salud:\n    datos personales, documento de identidad, contacto de emergencia, alergias,\n    enfermedades y medicación (también las que se dieron por terminadas, con la fecha\n    y la persona que lo hizo), citas y consultas, notas clínicas firmadas (en HTML y en\n    texto simple), diagnósticos, anotaciones posteriores, constantes vitales, recetas\n    con sus medicamentos, la lista de documentos y el registro de accesos.\n    Formato "{{format}}", versión {{version}}. Las fechas y horas\n    están en UTC con el formato ISO 8601 (por ejemplo 2026-05-04T09:30:00.000Z).',
    folders:
      '  prescriptions/   Recetas en PDF ({{prescriptions}}), con su código de verificación.\n                   Las anuladas llevan la marca ANULADA.\n  summaries/       Resúmenes de consulta en PDF ({{summaries}}).\n  documents/       Documentos añadidos a su historia ({{documents}}), con el nombre\n                   que se les dio; si dos coincidían, el segundo lleva un número.',
    notIncluded:
      'Qué no se incluye:\n  - Las notas clínicas que el médico todavía no ha firmado (borradores).\n  - Los documentos que se retiraron de la historia.',
    missingFiles:
      '  - {{count}} archivo(s) que no se pudieron leer del almacenamiento de la\n    clínica; figuran en record.json con "path": null. Consulte con la clínica.',
    pharmacy:
      'Cualquier farmacia puede comprobar una receta con su código de verificación en la\ndirección que aparece en el propio PDF.',
    confidential:
      'Esta copia contiene datos de salud confidenciales. Guárdela en un lugar seguro y\ncompártala solo con quien usted decida.',
  },
  fileName: {
    prescription: 'receta',
    visitSummary: 'resumen-consulta',
    recordSummary: 'resumen-historia-clinica',
    appointmentCalendar: 'cita',
  },
} as const;
